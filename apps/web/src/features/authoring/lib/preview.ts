import {
  gradeStep,
  resolveNextStep,
  validateAnswer,
  type AnswerInput,
  type GradedAnswer,
  type NextStep,
  type PlayerStep,
  type ScenarioDefinition,
  type ScenarioStep,
} from '@tradecraft/shared';
import { hintCostOf, playerStepOf, shownOptionOrder } from '@tradecraft/shared/player';

// The author's preview plays the draft in the browser with the shared grading and flow, as a run would, and
// records nothing. The author holds the key anyway: it is their own draft.

/** The order the preview shows a step's options in (the run's shuffle, seeded per preview). */
export const previewOrder = shownOptionOrder;

/** The step as a trainee sees it before answering: the same builder a run uses, seeded per preview. */
export function toPlayerStep(
  definition: ScenarioDefinition,
  step: ScenarioStep,
  view: { seed: string; hintOpened: boolean },
): PlayerStep {
  return playerStepOf({ orderSeed: view.seed, hintOpened: view.hintOpened }, definition, step);
}

export type PreviewAnswer = { ok: false; message: string } | { ok: true; graded: GradedAnswer; next: NextStep };

/** Grades an answer in the preview as the run engine would, and says where the run goes next. */
export function answerInPreview(
  definition: ScenarioDefinition,
  step: ScenarioStep,
  input: Omit<AnswerInput, 'stepId' | 'timeMs'>,
  context: { seed: string; hintOpened: boolean; firstSubmission: boolean },
): PreviewAnswer {
  const answer = { ...input, stepId: step.id, timeMs: 0 } as AnswerInput;
  const refusal = validateAnswer(step, answer);
  if (refusal) return { ok: false, message: refusal };
  const graded = gradeStep(step, answer, {
    order: previewOrder(context.seed, step),
    hintOpened: context.hintOpened,
    hintCost: hintCostOf(definition, step),
    firstSubmission: context.firstSubmission,
  });
  return { ok: true, graded, next: resolveNextStep(definition.steps, step.id, graded.outcome) };
}
