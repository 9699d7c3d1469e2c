import type { AdminScenarioStep } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import { correctPath, describeDestination, flowEdges, optionDestination } from './scenario-flow';

const step = (id: string, options: AdminScenarioStep['options'], correct = 0): AdminScenarioStep => ({
  kind: 'choice',
  id,
  title: id.toUpperCase(),
  description: id,
  options,
  correct_option: correct,
});

const steps: AdminScenarioStep[] = [
  step('alert', [
    { text: 'a', next_step: 'scope' },
    { text: 'b', next_step: 'missed' },
    { text: 'c', next_step: null },
  ]),
  step('missed', [{ text: 'a', next_step: 'scope' }, { text: 'b' }]),
  step('scope', [{ text: 'a' }, { text: 'b', next_step: null }]),
  step('report', [{ text: 'a' }, { text: 'b' }]),
];

describe('where options lead', () => {
  it('names a step, the next step in order, a retry or the finish', () => {
    expect(describeDestination(steps, optionDestination(steps, 0, 0))).toBe('Step 3: SCOPE');
    expect(describeDestination(steps, optionDestination(steps, 1, 1))).toBe('next step (Step 3: SCOPE)');
    expect(describeDestination(steps, optionDestination(steps, 0, 2))).toBe('Retry (stays on this step)');
    expect(describeDestination(steps, optionDestination(steps, 3, 1))).toBe('finish');
  });

  it('merges options with the same destination into one edge and marks the correct one', () => {
    expect(flowEdges(steps).filter((edge) => edge.from === 1)).toEqual([
      { from: 1, to: 2, correct: true, optionIndexes: [0, 1] },
    ]);
    expect(flowEdges(steps).filter((edge) => edge.from === 0)).toEqual([
      { from: 0, to: 2, correct: true, optionIndexes: [0] },
      { from: 0, to: 1, correct: false, optionIndexes: [1] },
      { from: 0, to: 'retry', correct: false, optionIndexes: [2] },
    ]);
  });

  it('follows the correct answers from the first step to the finish', () => {
    expect(correctPath(steps)).toEqual([0, 2, 3]);
  });
});
