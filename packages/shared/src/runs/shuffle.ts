// The order a run shows a step's options in: a shuffle seeded by the run id and the step id, so it is the same
// on every load of the run (resume, another tab) and differs between runs. Neither the file order (the key of
// a rank step, and often the author's habit on choice steps) nor anything else about the key can be read
// from it.

/** A 32-bit hash of a string (FNV-1a), the shuffle's seed. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

/** mulberry32: a small, well-mixed generator of numbers in [0, 1). */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The shown order of `count` options for this run and step: `order[shownIndex]` is the option's index in the
 * file. A uniform Fisher-Yates shuffle, so every order (the file order too) is as likely as any other.
 */
export function shownOrder(runId: string, stepId: string, count: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  const random = generator(hash(`${runId}\u0000${stepId}`));
  for (let index = count - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}
