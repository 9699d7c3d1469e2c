import { describe, expect, it } from 'vitest';
import { stepCounterText } from './step-counter';

describe('stepCounterText', () => {
  it('counts the steps played and says what is left on the best path', () => {
    expect(stepCounterText(3, 2)).toBe('Step 3 · 2 left on the best path');
  });

  it('gives no total when the best path from here is unknown', () => {
    expect(stepCounterText(4, null)).toBe('Step 4');
    expect(stepCounterText(1, 0)).toBe('Step 1');
  });
});
