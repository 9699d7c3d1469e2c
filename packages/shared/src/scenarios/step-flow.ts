/** The little of a step the flow needs, so the run engine can pass whatever step shape it holds. */
export interface FlowStep {
  id: string;
  options: ReadonlyArray<{ next_step?: string | null }>;
}

export type NextStep = { kind: 'step'; stepId: string } | { kind: 'retry' } | { kind: 'finish' };

/**
 * Where a run goes after the trainee picks `optionIndex` on step `stepId` (docs/scenario-format.md, "Step flow"):
 * a `next_step` naming an existing step goes there; `null` retries the same step; anything else
 * (absent, or naming no step) goes to the following step in file order, or finishes after the last.
 * The run engine and the scenario checker both use this, so they cannot disagree.
 *
 * @throws RangeError when the step or the option does not exist; callers validate input first.
 */
export function resolveNextStep(steps: readonly FlowStep[], stepId: string, optionIndex: number): NextStep {
  const stepIndex = steps.findIndex((step) => step.id === stepId);
  const step = steps[stepIndex];
  if (!step) throw new RangeError(`No step with id "${stepId}"`);
  const option = step.options[optionIndex];
  if (!option) throw new RangeError(`Step "${stepId}" has no option ${optionIndex}`);

  if (option.next_step === null) return { kind: 'retry' };
  if (option.next_step !== undefined && steps.some((candidate) => candidate.id === option.next_step)) {
    return { kind: 'step', stepId: option.next_step };
  }
  const following = steps[stepIndex + 1];
  return following ? { kind: 'step', stepId: following.id } : { kind: 'finish' };
}
