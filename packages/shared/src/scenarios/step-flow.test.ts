import { describe, expect, it } from 'vitest';
import { resolveNextStep, type FlowStep } from './step-flow';

const steps: FlowStep[] = [
  { id: 'alert', options: [{ next_step: 'report' }, { next_step: null }, {}, { next_step: 'nowhere' }] },
  { id: 'scope', options: [{}, { next_step: 'alert' }] },
  { id: 'report', options: [{}, { next_step: 'nowhere' }, { next_step: null }, { next_step: 'scope' }] },
];

describe('resolveNextStep', () => {
  it('goes to the step a next_step names', () => {
    expect(resolveNextStep(steps, 'alert', 0)).toEqual({ kind: 'step', stepId: 'report' });
    expect(resolveNextStep(steps, 'scope', 1)).toEqual({ kind: 'step', stepId: 'alert' });
    expect(resolveNextStep(steps, 'report', 3)).toEqual({ kind: 'step', stepId: 'scope' });
  });

  it('retries the same step when next_step is null', () => {
    expect(resolveNextStep(steps, 'alert', 1)).toEqual({ kind: 'retry' });
    expect(resolveNextStep(steps, 'report', 2)).toEqual({ kind: 'retry' });
  });

  it('goes to the following step in file order when next_step is absent or names no step', () => {
    expect(resolveNextStep(steps, 'alert', 2)).toEqual({ kind: 'step', stepId: 'scope' });
    expect(resolveNextStep(steps, 'alert', 3)).toEqual({ kind: 'step', stepId: 'scope' });
    expect(resolveNextStep(steps, 'scope', 0)).toEqual({ kind: 'step', stepId: 'report' });
  });

  it('finishes after the last step', () => {
    expect(resolveNextStep(steps, 'report', 0)).toEqual({ kind: 'finish' });
    expect(resolveNextStep(steps, 'report', 1)).toEqual({ kind: 'finish' });
  });

  it('refuses a step or an option that does not exist', () => {
    expect(() => resolveNextStep(steps, 'missing', 0)).toThrow(RangeError);
    expect(() => resolveNextStep(steps, 'scope', 2)).toThrow(RangeError);
    expect(() => resolveNextStep(steps, 'scope', -1)).toThrow(RangeError);
  });
});
