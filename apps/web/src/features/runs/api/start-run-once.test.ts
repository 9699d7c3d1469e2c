import { describe, expect, it, vi } from 'vitest';
import { createStartOnce } from './start-run-once';

describe('createStartOnce', () => {
  it('shares one request per key while it is in flight', async () => {
    const once = createStartOnce<string>();
    let finish: (value: string) => void = () => undefined;
    const begin = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));

    const first = once.start('visit-1', begin);
    const second = once.start('visit-1', begin);
    expect(second).toBe(first);
    expect(begin).toHaveBeenCalledTimes(1);
    finish('run-1');
    await expect(first).resolves.toBe('run-1');
  });

  it('forgets a request once it has settled, failed or not, so the map does not grow', async () => {
    const once = createStartOnce<string>();
    await once.start('visit-1', async () => 'run-1');
    await once.start('visit-2', async () => Promise.reject(new Error('no'))).catch(() => undefined);
    await Promise.resolve();
    expect(once.size).toBe(0);
    const again = vi.fn(async () => 'run-3');
    await once.start('visit-1', again);
    expect(again).toHaveBeenCalledTimes(1);
  });
});
