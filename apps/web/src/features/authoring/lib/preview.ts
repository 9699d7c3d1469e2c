import {
  DEFAULT_HINT_COST,
  gradeStep,
  hasShownOptions,
  resolveNextStep,
  shownOrder,
  stepSkill,
  validateAnswer,
  type AnswerInput,
  type GradedAnswer,
  type NextStep,
  type PlayerArtifact,
  type PlayerStep,
  type ScenarioDefinition,
  type ScenarioStep,
} from '@tradecraft/shared';
import { techniqueKey, techniqueRef } from '@tradecraft/shared/attack';

// The author's preview plays the draft in the browser with the shared grading and flow, as a run would, and
// records nothing. The author holds the key anyway: it is their own draft.

/** The order the preview shows a step's options in (the run's shuffle, seeded per preview). */
export function previewOrder(seed: string, step: ScenarioStep): number[] {
  return hasShownOptions(step) ? shownOrder(seed, step.id, step.options.length) : [];
}

export function hintCostOf(definition: ScenarioDefinition, step: ScenarioStep): number {
  return step.hint_cost ?? definition.hint_cost ?? DEFAULT_HINT_COST;
}

function playerArtifacts(step: ScenarioStep): PlayerArtifact[] {
  return (step.artifacts ?? []).map((artifact, index) => ({
    kind: artifact.kind,
    ...(artifact.title ? { title: artifact.title } : {}),
    ...(artifact.source ? { source: artifact.source } : {}),
    ...(artifact.date ? { date: artifact.date } : {}),
    content: artifact.content,
    ...(artifact.indicators?.length ? { indicators: artifact.indicators } : {}),
    ...(artifact.tlp ? { tlp: artifact.tlp } : {}),
    // The graded artifact never shows its grade, as in a run.
    ...(artifact.admiralty && !(step.kind === 'grade-source' && step.artifact === index)
      ? { admiralty: artifact.admiralty }
      : {}),
  }));
}

/** The step as a trainee sees it before answering (no key, options in the preview's shuffle). */
export function toPlayerStep(
  definition: ScenarioDefinition,
  step: ScenarioStep,
  view: { seed: string; hintOpened: boolean },
): PlayerStep {
  const technique = techniqueKey(step.mitre_attack);
  const hintText = step.hint?.trim() ? step.hint : null;
  const opened = view.hintOpened && hintText !== null;
  const common = {
    id: step.id,
    position: definition.steps.indexOf(step) + 1,
    title: step.title,
    description: step.description,
    artifacts: playerArtifacts(step),
    hint: opened ? hintText : null,
    hintState: {
      available: hintText !== null,
      opened,
      cost: hintCostOf(definition, step),
      text: opened ? hintText : null,
    },
    technique: technique ? techniqueRef(technique) : null,
    skill: stepSkill(step),
    scored: step.scored !== false,
  };
  switch (step.kind) {
    case 'choice':
    case 'multi':
    case 'rank':
      return {
        ...common,
        kind: step.kind,
        options: previewOrder(view.seed, step).map((file) => ({ text: step.options[file]?.text ?? '' })),
      };
    case 'estimate':
      return {
        ...common,
        kind: 'estimate',
        statement: step.statement,
        askConfidence: step.ask_confidence === true,
        options: [],
      };
    case 'grade-source':
      return { ...common, kind: 'grade-source', artifact: step.artifact, options: [] };
    case 'extract':
      return {
        ...common,
        kind: 'extract',
        fields: step.fields.map((field) => ({ label: field.label, type: field.type })),
        options: [],
      };
    case 'ach':
      return {
        ...common,
        kind: 'ach',
        hypotheses: [...step.hypotheses],
        evidence: step.evidence.map((row) => row.text),
        options: [],
      };
    case 'write':
      return {
        ...common,
        kind: 'write',
        prompt: step.prompt,
        maxWords: step.max_words,
        checks: {
          tlp: step.checks?.tlp === true,
          estimativeLanguage: step.checks?.estimative_language === true,
          mustMention: [...(step.checks?.must_mention ?? [])],
        },
        rubric: step.rubric.map((criterion) => ({ criterion: criterion.criterion, points: criterion.points })),
        options: [],
      };
  }
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
