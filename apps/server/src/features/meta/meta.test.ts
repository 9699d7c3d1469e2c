import { ATTACK_VERSION } from '@tradecraft/shared/attack';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('GET /api/meta', () => {
  it('tells anyone, signed in or not, the configured repository and the ATT&CK release', async () => {
    t = await createTestApp({ REPOSITORY_URL: 'https://git.example.org/range/tradecraft/' });
    const response = await t.request({ method: 'GET', url: '/api/meta' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      repositoryUrl: 'https://git.example.org/range/tradecraft',
      attackVersion: ATTACK_VERSION,
    });
  });

  it('defaults to the project repository', async () => {
    t = await createTestApp();
    const response = await t.request({ method: 'GET', url: '/api/meta' });
    expect(response.json().repositoryUrl).toBe('https://github.com/tradecraft-range/tradecraft');
  });
});
