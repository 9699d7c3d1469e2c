/** The little of a step the flow needs, so the run engine can pass whatever step shape it holds. */
export interface FlowStep {
  id: string;
  /** Absent means choice. */
  kind?: string | undefined;
  /** choice steps: each option's `next_step` (null = Retry). Other kinds' options have no flow. */
  options?: ReadonlyArray<{ text?: string; next_step?: string | null | undefined }> | undefined;
  /** Kinds other than choice: where to go (absent: the following step in file order). */
  next_step?: string | undefined;
  /** Kinds other than choice: a first submission under `credit` goes to `next_step` instead. */
  below?: { credit: number; next_step: string } | undefined;
}

export type NextStep = { kind: 'step'; stepId: string } | { kind: 'retry' } | { kind: 'finish' };

/**
 * What decides the way on: the option picked (its index in the FILE) on a choice step, the credit of the
 * submission (0 to 1, before any hint charge) on any other kind. A plain number is an option index.
 */
export type StepOutcome = number | { optionIndex: number } | { credit: number };

const isChoice = (step: FlowStep) => step.kind === undefined || step.kind === 'choice';

/**
 * Where a run goes after an answer on step `stepId` (docs/scenario-format.md, "Step flow"). On a choice step: the picked
 * option's `next_step` naming an existing step goes there; `null` retries the same step; anything else (absent,
 * or naming no step) goes to the following step in file order, or finishes after the last. On other kinds: a
 * credit under `below.credit` goes to `below.next_step`; otherwise `next_step`, else the following step. The
 * run engine and the scenario checker both use this, so they cannot disagree.
 *
 * @throws RangeError when the step or the option does not exist; callers validate input first.
 */
export function resolveNextStep(steps: readonly FlowStep[], stepId: string, outcome: StepOutcome): NextStep {
  const stepIndex = steps.findIndex((step) => step.id === stepId);
  const step = steps[stepIndex];
  if (!step) throw new RangeError(`No step with id "${stepId}"`);
  const exists = (id: string | null | undefined): id is string =>
    typeof id === 'string' && steps.some((candidate) => candidate.id === id);

  let target: string | null | undefined;
  if (isChoice(step)) {
    const optionIndex = typeof outcome === 'number' ? outcome : 'optionIndex' in outcome ? outcome.optionIndex : -1;
    const option = step.options?.[optionIndex];
    if (!option) throw new RangeError(`Step "${stepId}" has no option ${optionIndex}`);
    if (option.next_step === null) return { kind: 'retry' };
    target = option.next_step;
  } else {
    const credit = typeof outcome === 'object' && 'credit' in outcome ? outcome.credit : 1;
    target =
      step.below && credit < step.below.credit && exists(step.below.next_step) ? step.below.next_step : step.next_step;
  }
  if (exists(target)) return { kind: 'step', stepId: target };
  const following = steps[stepIndex + 1];
  return following ? { kind: 'step', stepId: following.id } : { kind: 'finish' };
}
