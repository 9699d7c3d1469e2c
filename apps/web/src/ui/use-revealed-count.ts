import { startTransition, useEffect, useState } from 'react';

/**
 * How many items of a long list to draw now: the first `first` at once (enough to fill the screen), then `step` more
 * after each paint, as an interruptible transition, until all `total` are drawn. Eighty cards drawn in one go block
 * the page for a long moment; drawn in batches, the first screen shows as soon as it can and typing or clicking is
 * never kept waiting. A list that shrinks (a filter) is drawn whole at once.
 */
export function useRevealedCount(total: number, first = 12, step = 12): number {
  const [count, setCount] = useState(first);
  useEffect(() => {
    if (count >= total) return;
    const timer = window.setTimeout(() => startTransition(() => setCount((current) => current + step)), 0);
    return () => window.clearTimeout(timer);
  }, [count, total, step]);
  return Math.min(count, total);
}
