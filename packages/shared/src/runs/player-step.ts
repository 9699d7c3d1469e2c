// The step as a trainee sees it before answering, built the one way the server (a run, a practice attempt) and
// the editor's preview both use: no key of any kind, the hint only once opened, options in the seeded shuffle.
// A module of its own (`@tradecraft/shared/player`) because it reads the ATT&CK data, which the other screens
// should not load.
import { techniqueKey, techniqueRef } from '../attack';
import type { ScenarioDefinition, ScenarioStep } from '../scenarios/scenario.schema';
import { DEFAULT_HINT_COST, stepSkill } from '../scenarios/step-kinds';
import { hasShownOptions } from './grade-step';
import { shownOrder } from './shuffle';
import { MENTION_KIND_LABELS, mentionKind, neutralCriterion } from './write-brief';
import type { PlayerArtifact, PlayerStep } from './step-answers.schema';

/**
 * The order a run (or a practice attempt) shows a step's options in, or an ACH step's hypotheses (the file order
 * is the author's habit, often with the key first); empty for the other kinds.
 */
export function shownOptionOrder(seed: string, step: ScenarioStep): number[] {
  if (hasShownOptions(step)) return shownOrder(seed, step.id, step.options.length);
  return step.kind === 'ach' ? shownOrder(seed, step.id, step.hypotheses.length) : [];
}

/** The hint cost of a step: its own, else the scenario's, else the default. */
export function hintCostOf(definition: ScenarioDefinition, step: ScenarioStep): number {
  return step.hint_cost ?? definition.hint_cost ?? DEFAULT_HINT_COST;
}

export function playerArtifacts(step: ScenarioStep): PlayerArtifact[] {
  return (step.artifacts ?? []).map((artifact, index) => ({
    kind: artifact.kind,
    ...(artifact.title ? { title: artifact.title } : {}),
    ...(artifact.source ? { source: artifact.source } : {}),
    ...(artifact.date ? { date: artifact.date } : {}),
    content: artifact.content,
    ...(artifact.indicators?.length
      ? {
          indicators: artifact.indicators.map((indicator) => ({
            type: indicator.type,
            value: indicator.value,
            ...(indicator.context ? { context: indicator.context } : {}),
          })),
        }
      : {}),
    ...(artifact.tlp ? { tlp: artifact.tlp } : {}),
    // The graded artifact of a grade-source step never shows a grade (the checker refuses one anyway).
    ...(artifact.admiralty && !(step.kind === 'grade-source' && step.artifact === index)
      ? { admiralty: artifact.admiralty }
      : {}),
  }));
}

/**
 * The step as a trainee may see it before answering: no key of any kind (correct flags, credits, accepted
 * terms, outcomes, grades, matrix marks, model answer), no next steps, no feedback, the hint only once opened,
 * and options in the run's own shuffle. The step's ATT&CK technique often names the answer ("Phishing" above
 * "is this email safe to open?"), so it comes only with the verdict (`answered`).
 */
export function playerStepOf(
  view: { orderSeed: string; hintOpened: boolean; answered?: boolean },
  definition: ScenarioDefinition,
  step: ScenarioStep,
): PlayerStep {
  const technique = techniqueKey(step.mitre_attack);
  const hintText = step.hint?.trim() ? step.hint : null;
  const opened = view.hintOpened && hintText !== null;
  const common = {
    id: step.id,
    position: definition.steps.findIndex((candidate) => candidate.id === step.id) + 1,
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
    technique: technique && view.answered === true ? techniqueRef(technique) : null,
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
        options: shownOptionOrder(view.orderSeed, step).map((file) => ({ text: step.options[file]?.text ?? '' })),
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
        hypotheses: shownOptionOrder(view.orderSeed, step).map((file) => step.hypotheses[file] ?? ''),
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
          mustMention: (step.checks?.must_mention ?? []).map((term) => {
            const kind = mentionKind(term);
            return { kind, label: MENTION_KIND_LABELS[kind] };
          }),
        },
        rubric: step.rubric.map((criterion) => ({
          criterion: neutralCriterion(criterion.criterion),
          points: criterion.points,
        })),
        options: [],
      };
  }
}
