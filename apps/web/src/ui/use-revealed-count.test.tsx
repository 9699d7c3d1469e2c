import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useRevealedCount } from './use-revealed-count';

afterEach(cleanup);

describe('useRevealedCount', () => {
  it('draws the first batch at once and the whole list soon after', async () => {
    const { result } = renderHook(() => useRevealedCount(30, 12, 12));
    expect(result.current).toBe(12);
    await waitFor(() => expect(result.current).toBe(30));
  });

  it('draws a list shorter than the first batch whole at once', () => {
    const { result } = renderHook(() => useRevealedCount(5, 12, 12));
    expect(result.current).toBe(5);
  });

  it('draws a list that arrives later in batches too', async () => {
    const { result, rerender } = renderHook(({ total }) => useRevealedCount(total, 12, 12), {
      initialProps: { total: 0 },
    });
    expect(result.current).toBe(0);
    rerender({ total: 40 });
    expect(result.current).toBe(12);
    await waitFor(() => expect(result.current).toBe(40));
  });
});
