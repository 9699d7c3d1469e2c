import {
  countVerdicts,
  decisionVerdict,
  DEFAULT_SKILL_BY_KIND,
  type DecisionVerdict,
  type VerdictCounts,
  isRunCompleted,
  runResult,
  runScorePercent,
  SKILL_LABELS,
  SKILLS,
  STEP_KINDS,
  type RunResult,
  type ScenarioDefinition,
  type Skill,
  type SkillScore,
  type StepKind,
  type StepResult,
} from '@tradecraft/shared';
import type { Run } from '../../db/schema';
import { BoundedMap } from '../../bounded-map';

// The run helpers every feature that shows a run uses (the run engine, progress, reports, reviews): THE score
// figures of a run, durations, stored definitions, recorded results and per-skill credit.

/** The columns the score figures need. */
export type RunFigureColumns = Pick<
  Run,
  | 'scenario_id'
  | 'scenario_name'
  | 'step_count'
  | 'score_thousandths'
  | 'percent_base'
  | 'pending_reviews'
  | 'status'
  | 'started_at'
  | 'finished_at'
>;

/**
 * THE figures of a run, the only place a run's score, percent and result are decided on the server: the end
 * state, the dashboard, the report, Training Progress and its CSV and the skill map all come through here.
 * The percent divides the exact score by the stored base (runPercentBase when the run last changed; an old
 * run's step count), so a run's percent never changes unless the run does.
 */
export function runFigures(run: RunFigureColumns) {
  const completed = isRunCompleted(run.status);
  const scorePercent = runScorePercent(run.score_thousandths, run.percent_base);
  const result: RunResult = runResult({ completed, scorePercent, pendingReviews: run.pending_reviews });
  return {
    scenarioId: run.scenario_id,
    scenarioName: run.scenario_name.trim() || run.scenario_id,
    stepCount: run.step_count,
    score: run.score_thousandths / 1000,
    scoreThousandths: run.score_thousandths,
    percentBase: run.percent_base,
    scorePercent,
    result,
    pendingReviews: run.pending_reviews,
    status: run.status,
    completed,
    startedAt: run.started_at,
    finishedAt: run.finished_at,
  };
}

/** Whole seconds from start to finish, or to `now` for a run still going; never negative. */
export function runDurationSeconds(run: Pick<Run, 'started_at' | 'finished_at'>, now: string): number {
  const end = Date.parse(run.finished_at ?? now);
  return Math.max(0, Math.round((end - Date.parse(run.started_at)) / 1000));
}

/** Steps stored before step kinds had no `kind`: they are choice steps. */
function withKinds(definition: ScenarioDefinition): ScenarioDefinition {
  if (definition.steps.every((step) => step.kind !== undefined)) return definition;
  const steps = definition.steps.map((step): ScenarioDefinition['steps'][number] =>
    step.kind === undefined ? ({ ...(step as object), kind: 'choice' } as ScenarioDefinition['steps'][number]) : step,
  );
  return { ...definition, steps };
}

// Parsing a definition costs more than the rest of an answer, and every answer and move needs one: the parsed
// definitions are kept by their exact JSON text, so an edited scenario can never be served from a stale parse.
// They are shared between requests and never mutated.
const PARSED_DEFINITIONS_KEPT = 64;
const parsedDefinitions = new BoundedMap<string, ScenarioDefinition | null>(PARSED_DEFINITIONS_KEPT);

/** A stored (checked) scenario definition, or null when it cannot be read. */
export function parseStoredDefinition(text: string): ScenarioDefinition | null {
  const cached = parsedDefinitions.get(text);
  if (cached !== undefined) return cached;
  let definition: ScenarioDefinition | null;
  try {
    const value = JSON.parse(text) as ScenarioDefinition;
    definition = Array.isArray(value.steps) ? withKinds(value) : null;
  } catch {
    definition = null;
  }
  parsedDefinitions.set(text, definition);
  return definition;
}

/** The decision columns credit per skill and technique needs. */
export interface CreditedDecision {
  skill: string;
  kind: string;
  credit_thousandths: number;
  first_submission: number;
  scored: number;
}

const isSkill = (value: string): value is Skill => (SKILLS as readonly string[]).includes(value);
const isKind = (value: string): value is StepKind => (STEP_KINDS as readonly string[]).includes(value);

/** A decision's skill as stored, falling back to its kind's default for an unknown value. */
export function decisionSkill(decision: Pick<CreditedDecision, 'skill' | 'kind'>): Skill {
  if (isSkill(decision.skill)) return decision.skill;
  return DEFAULT_SKILL_BY_KIND[isKind(decision.kind) ? decision.kind : 'choice'];
}

/** Decisions that count: the first submission of a visit on a scored step. */
export const countsForCredit = (decision: Pick<CreditedDecision, 'first_submission' | 'scored'>) =>
  decision.first_submission === 1 && decision.scored === 1;

/** Counted answers and their credit for one skill (or kind, when the skill is unknown). */
export interface SkillTally {
  skill: string;
  kind: string;
  attempts: number;
  thousandths: number;
}

/** Credit per analyst skill from tallies; every skill is listed when `all`, else only those met. */
export function skillScoresOf(tallies: Iterable<SkillTally>, options: { all?: boolean } = {}): SkillScore[] {
  const bySkill = new Map<Skill, { attempts: number; thousandths: number }>();
  for (const tally of tallies) {
    const skill = decisionSkill(tally);
    const current = bySkill.get(skill) ?? { attempts: 0, thousandths: 0 };
    bySkill.set(skill, {
      attempts: current.attempts + tally.attempts,
      thousandths: current.thousandths + tally.thousandths,
    });
  }
  return SKILLS.filter((skill) => options.all || bySkill.has(skill)).map((skill) => {
    const { attempts, thousandths } = bySkill.get(skill) ?? { attempts: 0, thousandths: 0 };
    return {
      skill,
      label: SKILL_LABELS[skill],
      attempts,
      credit: thousandths / 1000,
      percent: attempts === 0 ? 0 : Math.round(thousandths / (10 * attempts)),
    };
  });
}

/** Credit per analyst skill over a run's counted decisions (the skills met only). */
export function skillScores(decisions: Iterable<CreditedDecision>): SkillScore[] {
  const tallies: SkillTally[] = [];
  for (const decision of decisions) {
    if (countsForCredit(decision))
      tallies.push({
        skill: decision.skill,
        kind: decision.kind,
        attempts: 1,
        thousandths: decision.credit_thousandths,
      });
  }
  return skillScoresOf(tallies);
}

/**
 * A decision's recorded result (revealed key and per-element feedback), or null: from before step kinds, or
 * unreadable. The server wrote it from a checked StepResult, so it is read without validating it again (every
 * answer's response reads the whole timeline); the response schema still checks what is sent.
 */
export function parseStepResult(text: string | null): StepResult | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string'
      ? (value as StepResult)
      : null;
  } catch {
    return null;
  }
}

/** The decision columns a verdict is decided from. */
export interface VerdictColumns {
  kind: string;
  correct: number;
  credit_thousandths: number;
  first_submission: number;
  scored: number;
  hint_used: number;
  result: string | null;
}

/**
 * THE verdict of a recorded answer (packages/shared verdict.ts, docs/scoring.md), from its row: `correct` is
 * whether the answer itself earned full credit (before a hint's charge). The recorded result is read only where
 * the columns cannot tell: a written answer's review, and a first answer a hint charged down to nothing.
 * `parsed` passes a result already read.
 */
export function verdictOf(row: VerdictColumns, parsed?: StepResult | null): DecisionVerdict {
  const needsResult =
    row.kind === 'write' || (row.correct !== 1 && row.credit_thousandths === 0 && row.hint_used === 1);
  const result = needsResult ? (parsed === undefined ? parseStepResult(row.result) : parsed) : null;
  const rawThousandths = result
    ? Math.round(result.rawCredit * 1000)
    : row.correct === 1
      ? 1000
      : row.credit_thousandths;
  return decisionVerdict({
    scored: row.scored === 1,
    firstSubmission: row.first_submission === 1,
    rawThousandths,
    reviewPending: result?.kind === 'write' && result.review?.status === 'pending',
  });
}

/** Every answer of a run (or any list of answers) counted by verdict. */
export function verdictCountsOf(rows: Iterable<VerdictColumns>): VerdictCounts {
  const verdicts: DecisionVerdict[] = [];
  for (const row of rows) verdicts.push(verdictOf(row));
  return countVerdicts(verdicts);
}

/** The verdict a recorded result speaks for by itself (an answer whose row is not at hand). */
export function resultVerdict(result: StepResult): DecisionVerdict {
  return decisionVerdict({
    scored: result.scored,
    firstSubmission: result.firstSubmission,
    rawThousandths: Math.round(result.rawCredit * 1000),
    reviewPending: result.kind === 'write' && result.review?.status === 'pending',
  });
}
