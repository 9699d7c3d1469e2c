import { STEP_KINDS, type NextStep } from '@tradecraft/shared';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import { reusableQuery } from '../../db/reusable-query';
import type { Run, RunDecisionsTable, RunPracticeTable, StepReviewsTable } from '../../db/schema';

export type RunDecisionRow = Selectable<RunDecisionsTable>;

/**
 * What the run engine reads of a run's scenario besides a version's definition (deleted ones too: old runs still
 * show their data). `current_version_id` is the version a new run starts on (null while only a draft exists).
 */
export interface ScenarioForRun {
  id: string;
  name: string;
  deleted_at: string | null;
  current_version_id: string | null;
}

/** A run with its scenario's columns (undefined scenario when the row is gone), read in one statement. */
export interface RunWithScenario {
  run: Run;
  scenario: ScenarioForRun | undefined;
}

const scenarioForRunQuery = reusableQuery<{ id: string }, ScenarioForRun>((db, param) =>
  db.selectFrom('scenarios').select(['id', 'name', 'deleted_at', 'current_version_id']).where('id', '=', param('id')),
);

export async function findScenarioForRun(db: DbOrTrx, id: string): Promise<ScenarioForRun | undefined> {
  return (await scenarioForRunQuery(db, { id }))[0];
}

const versionDefinitionQuery = reusableQuery<{ id: string }, { definition: string }>((db, param) =>
  db.selectFrom('scenario_versions').select('definition').where('id', '=', param('id')),
);

/** A scenario version's stored definition text (read only when the parsed one is not already kept). */
export async function findVersionDefinition(db: DbOrTrx, versionId: string): Promise<string | undefined> {
  return (await versionDefinitionQuery(db, { id: versionId }))[0]?.definition;
}

type RunScenarioRow = Run & {
  s_id: string | null;
  s_name: string | null;
  s_deleted_at: string | null;
  s_current_version_id: string | null;
};

const runWithScenarioQuery = reusableQuery<{ id: string }, RunScenarioRow>((db, param) =>
  db
    .selectFrom('runs')
    .leftJoin('scenarios', 'scenarios.id', 'runs.scenario_id')
    .selectAll('runs')
    .select([
      'scenarios.id as s_id',
      'scenarios.name as s_name',
      'scenarios.deleted_at as s_deleted_at',
      'scenarios.current_version_id as s_current_version_id',
    ])
    .where('runs.id', '=', param('id')),
);

/** A run and its scenario's columns in one statement; undefined when there is no such run. */
export async function findRunWithScenario(db: DbOrTrx, id: string): Promise<RunWithScenario | undefined> {
  const row = (await runWithScenarioQuery(db, { id }))[0];
  if (!row) return undefined;
  // The row itself is the run: its four scenario columns ride along unread (copying the other columns out, on
  // every answer and move, showed in the answer path's profile).
  return {
    run: row,
    scenario:
      row.s_id === null
        ? undefined
        : {
            id: row.s_id,
            name: row.s_name ?? '',
            deleted_at: row.s_deleted_at,
            current_version_id: row.s_current_version_id,
          },
  };
}

/** Every column of a run, so the insert below names each one (the compiler checks that none is missing). */
const RUN_COLUMNS = Object.keys({
  id: true,
  user_id: true,
  scenario_id: true,
  scenario_name: true,
  step_count: true,
  current_step_id: true,
  current_answered: true,
  last_option_index: true,
  score_thousandths: true,
  percent_base: true,
  played_steps: true,
  best_path_steps: true,
  pending_reviews: true,
  hint_opened: true,
  visit_submitted: true,
  last_credit_thousandths: true,
  status: true,
  started_at: true,
  finished_at: true,
  updated_at: true,
  version_id: true,
} satisfies Record<keyof Run, true>) as (keyof Run)[];

const insertRunQuery = reusableQuery<Run, unknown>((db, param) =>
  db.insertInto('runs').values(Object.fromEntries(RUN_COLUMNS.map((column) => [column, param(column)])) as Run),
);

export async function insertRun(db: DbOrTrx, run: Run): Promise<void> {
  await insertRunQuery(db, run);
}

const runQuery = reusableQuery<{ id: string }, Run>((db, param) =>
  db.selectFrom('runs').selectAll().where('id', '=', param('id')),
);

export async function findRun(db: DbOrTrx, id: string): Promise<Run | undefined> {
  return (await runQuery(db, { id }))[0];
}

const decisionsQuery = reusableQuery<{ runId: string }, RunDecisionRow>((db, param) =>
  db.selectFrom('run_decisions').selectAll().where('run_id', '=', param('runId')).orderBy('seq', 'asc'),
);

export function listDecisions(db: DbOrTrx, runId: string): Promise<RunDecisionRow[]> {
  return decisionsQuery(db, { runId });
}

/** Step kinds whose recorded result the player leaves out of a run in progress (all but a written answer's). */
const RESULTS_LEFT_OUT = STEP_KINDS.filter((kind) => kind !== 'write');

const playDecisionsQuery = reusableQuery<{ runId: string }, RunDecisionRow>((db, param) =>
  db
    .selectFrom('run_decisions')
    .select([
      'id',
      'run_id',
      'seq',
      'step_id',
      'option_index',
      'correct',
      'decision',
      'feedback',
      'technique',
      'time_ms',
      'at',
      'kind',
      'skill',
      'credit_thousandths',
      'first_submission',
      'scored',
      'hint_used',
      sql<string | null>`case when kind in (${sql.join(RESULTS_LEFT_OUT)}) then null else result end`.as('result'),
    ])
    .where('run_id', '=', param('runId'))
    .orderBy('seq', 'asc'),
);

/**
 * A run's decisions as the player's view of a run in progress uses them: the recorded result (the revealed key,
 * the largest column) only for written answers (their review status) and rows of unknown kinds: every answer and
 * every move reads the run's decisions again, and the results were most of what that read carried.
 */
export function listPlayDecisions(db: DbOrTrx, runId: string): Promise<RunDecisionRow[]> {
  return playDecisionsQuery(db, { runId });
}

/** What an answer changes on its run. */
export type AnsweredRunChanges = Pick<
  Run,
  | 'score_thousandths'
  | 'played_steps'
  | 'percent_base'
  | 'pending_reviews'
  | 'last_option_index'
  | 'last_credit_thousandths'
  | 'updated_at'
>;

/** The run as the answer was decided on: the claim succeeds only while these are unchanged. */
export type AnswerBasis = Pick<
  Run,
  | 'id'
  | 'current_step_id'
  | 'visit_submitted'
  | 'hint_opened'
  | 'score_thousandths'
  | 'played_steps'
  | 'pending_reviews'
>;

const claimAnswerQuery = reusableQuery<
  AnsweredRunChanges & {
    runId: string;
    stepId: string;
    basisVisitSubmitted: number;
    basisHintOpened: number;
    basisScore: number;
    basisPlayed: number;
    basisPending: number;
  },
  Run
>((db, param) =>
  db
    .updateTable('runs')
    .set({
      current_answered: 1,
      visit_submitted: 1,
      score_thousandths: param('score_thousandths'),
      played_steps: param('played_steps'),
      percent_base: param('percent_base'),
      pending_reviews: param('pending_reviews'),
      last_option_index: param('last_option_index'),
      last_credit_thousandths: param('last_credit_thousandths'),
      updated_at: param('updated_at'),
    })
    .where('id', '=', param('runId'))
    .where('status', '=', 'in_progress')
    .where('current_step_id', '=', param('stepId'))
    .where('current_answered', '=', 0)
    .where('visit_submitted', '=', param('basisVisitSubmitted'))
    .where('hint_opened', '=', param('basisHintOpened'))
    .where('score_thousandths', '=', param('basisScore'))
    .where('played_steps', '=', param('basisPlayed'))
    .where('pending_reviews', '=', param('basisPending'))
    .returningAll(),
);

/**
 * Claims the run's current step for one answer and writes the answer's figures, in one statement: it succeeds
 * only while that step is current and unanswered in a run in progress and the figures the answer was decided
 * on (visit, hint, score, steps played, reviews) are unchanged, so of two answers racing for the same step
 * exactly one gets the run back (as it is after the answer). On PostgreSQL the row stays locked until the
 * transaction ends, so the loser re-checks the condition after the winner commits.
 */
export async function claimAnswer(
  db: DbOrTrx,
  basis: AnswerBasis,
  changes: AnsweredRunChanges,
): Promise<Run | undefined> {
  const rows = await claimAnswerQuery(db, {
    ...changes,
    runId: basis.id,
    stepId: basis.current_step_id,
    basisVisitSubmitted: basis.visit_submitted,
    basisHintOpened: basis.hint_opened,
    basisScore: basis.score_thousandths,
    basisPlayed: basis.played_steps,
    basisPending: basis.pending_reviews,
  });
  return rows[0];
}

/** Records that the current step's hint was opened; undefined when that step is no longer current. */
export function openHint(db: DbOrTrx, hint: { runId: string; stepId: string; at: string }): Promise<Run | undefined> {
  return db
    .updateTable('runs')
    .set({ hint_opened: 1, updated_at: hint.at })
    .where('id', '=', hint.runId)
    .where('status', '=', 'in_progress')
    .where('current_step_id', '=', hint.stepId)
    .returningAll()
    .executeTakeFirst();
}

const insertDecisionQuery = reusableQuery<Omit<RunDecisionRow, 'id'>, { id: number | bigint }>((db, param) =>
  db
    .insertInto('run_decisions')
    .values({
      run_id: param('run_id'),
      seq: param('seq'),
      step_id: param('step_id'),
      option_index: param('option_index'),
      correct: param('correct'),
      decision: param('decision'),
      feedback: param('feedback'),
      technique: param('technique'),
      time_ms: param('time_ms'),
      at: param('at'),
      kind: param('kind'),
      skill: param('skill'),
      credit_thousandths: param('credit_thousandths'),
      first_submission: param('first_submission'),
      scored: param('scored'),
      hint_used: param('hint_used'),
      result: param('result'),
    })
    .returning('id'),
);

/** Inserts a decision and returns it as stored. */
export async function insertDecision(db: DbOrTrx, decision: Omit<RunDecisionRow, 'id'>): Promise<RunDecisionRow> {
  const rows = await insertDecisionQuery(db, decision);
  return { ...decision, id: Number(rows[0]!.id) };
}

/** What a new review records: it opens pending, ungraded. */
export type NewReview = Pick<
  Insertable<StepReviewsTable>,
  | 'decision_id'
  | 'run_id'
  | 'user_id'
  | 'scenario_id'
  | 'step_id'
  | 'auto_thousandths'
  | 'hint_cost_thousandths'
  | 'submitted_at'
>;

const insertReviewQuery = reusableQuery<NewReview, unknown>((db, param) =>
  db.insertInto('step_reviews').values({
    decision_id: param('decision_id'),
    run_id: param('run_id'),
    user_id: param('user_id'),
    scenario_id: param('scenario_id'),
    step_id: param('step_id'),
    status: 'pending',
    auto_thousandths: param('auto_thousandths'),
    hint_cost_thousandths: param('hint_cost_thousandths'),
    submitted_at: param('submitted_at'),
  }),
);

/** Opens a written answer's review for an instructor. */
export async function insertReview(db: DbOrTrx, review: NewReview): Promise<void> {
  await insertReviewQuery(db, review);
}

/**
 * Moves on from the answered step the caller saw (`fromStepId` answered with `optionIndex`) and returns the
 * run as it is after the move; changes nothing and returns undefined when the run is no longer in that state
 * (a second Next, another tab, a finished run). Going to a step starts a new visit (hint closed, nothing
 * submitted); a Retry stays on the visit; finishing completes the run with the given percent base.
 */
type MoveParams = { runId: string; fromStepId: string; optionIndex: number; at: string };

/** The move's condition: still on the answered step the caller saw, in a run in progress. */
function moveQuery<Set extends Record<string, unknown>>(set: (param: <K extends string>(name: K) => never) => Set) {
  return reusableQuery<MoveParams & Record<string, unknown>, Run>((db, param) =>
    db
      .updateTable('runs')
      .set(set(param as <K extends string>(name: K) => never))
      .where('id', '=', param('runId') as string)
      .where('status', '=', 'in_progress')
      .where('current_step_id', '=', param('fromStepId') as string)
      .where('current_answered', '=', 1)
      .where('last_option_index', '=', param('optionIndex') as number)
      .returningAll(),
  );
}

// One compiled statement per kind of move (the run engine's hottest request after the answer).
const finishMove = moveQuery((param) => ({
  status: 'completed' as const,
  finished_at: param('at'),
  percent_base: param('percentBase'),
  updated_at: param('at'),
}));
const retryMove = moveQuery((param) => ({
  current_answered: 0,
  last_option_index: null,
  last_credit_thousandths: null,
  updated_at: param('at'),
}));
const stepMove = moveQuery((param) => ({
  current_step_id: param('stepId'),
  current_answered: 0,
  last_option_index: null,
  last_credit_thousandths: null,
  visit_submitted: 0,
  hint_opened: 0,
  updated_at: param('at'),
}));

/**
 * Moves on from the answered step the caller saw (`fromStepId` answered with `optionIndex`) and returns the
 * run as it is after the move; changes nothing and returns undefined when the run is no longer in that state
 * (a second Next, another tab, a finished run). Going to a step starts a new visit (hint closed, nothing
 * submitted); a Retry stays on the visit; finishing completes the run with the given percent base.
 */
export async function moveRunReturningRun(
  db: DbOrTrx,
  move: { runId: string; fromStepId: string; optionIndex: number; to: NextStep; percentBase: number; at: string },
): Promise<Run | undefined> {
  const { runId, fromStepId, optionIndex, at, to } = move;
  const base = { runId, fromStepId, optionIndex, at };
  const rows =
    to.kind === 'finish'
      ? await finishMove(db, { ...base, percentBase: move.percentBase })
      : to.kind === 'retry'
        ? await retryMove(db, base)
        : await stepMove(db, { ...base, stepId: to.stepId });
  return rows[0];
}

/**
 * Ends a run in progress at once with the given percent base and returns it ended; undefined when it had
 * already finished, or when an answer changed the steps played since the caller read them.
 */
export function endRun(
  db: DbOrTrx,
  end: { runId: string; playedSteps: number; percentBase: number; at: string },
): Promise<Run | undefined> {
  return db
    .updateTable('runs')
    .set({ status: 'ended', finished_at: end.at, percent_base: end.percentBase, updated_at: end.at })
    .where('id', '=', end.runId)
    .where('status', '=', 'in_progress')
    .where('played_steps', '=', end.playedSteps)
    .returningAll()
    .executeTakeFirst();
}

/** The trainee's latest run of a scenario (the one Start Simulation and Resume continue unless it completed). */
const latestRunOfQuery = reusableQuery<{ userId: string; scenarioId: string }, Run>((db, param) =>
  db
    .selectFrom('runs')
    .selectAll()
    .where('user_id', '=', param('userId'))
    .where('scenario_id', '=', param('scenarioId'))
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1),
);

export async function findLatestRunOf(
  db: DbOrTrx,
  of: { userId: string; scenarioId: string },
): Promise<Run | undefined> {
  return (await latestRunOfQuery(db, of))[0];
}

/** The trainee's run of a scenario in progress (a unique index allows one). */
const runInProgressOfQuery = reusableQuery<{ userId: string; scenarioId: string }, Run>((db, param) =>
  db
    .selectFrom('runs')
    .selectAll()
    .where('user_id', '=', param('userId'))
    .where('scenario_id', '=', param('scenarioId'))
    .where('status', '=', 'in_progress'),
);

export async function findRunInProgressOf(
  db: DbOrTrx,
  of: { userId: string; scenarioId: string },
): Promise<Run | undefined> {
  return (await runInProgressOfQuery(db, of))[0];
}

/** Puts an ended run back in progress where it stopped; undefined when it is no longer ended. */
export function reopenRun(db: DbOrTrx, reopen: { runId: string; at: string }): Promise<Run | undefined> {
  return db
    .updateTable('runs')
    .set({ status: 'in_progress', finished_at: null, updated_at: reopen.at })
    .where('id', '=', reopen.runId)
    .where('status', '=', 'ended')
    .returningAll()
    .executeTakeFirst();
}

export type PracticeRow = Selectable<RunPracticeTable>;

export async function insertPractice(db: DbOrTrx, practice: Insertable<RunPracticeTable>): Promise<void> {
  await db.insertInto('run_practice').values(practice).execute();
}

export function findPractice(db: DbOrTrx, of: { runId: string; id: string }): Promise<PracticeRow | undefined> {
  return db
    .selectFrom('run_practice')
    .selectAll()
    .where('id', '=', of.id)
    .where('run_id', '=', of.runId)
    .executeTakeFirst();
}

/** The answered practice attempts of a run, oldest first. */
export function listAnsweredPractice(db: DbOrTrx, runId: string): Promise<PracticeRow[]> {
  return db
    .selectFrom('run_practice')
    .selectAll()
    .where('run_id', '=', runId)
    .where('answered_at', 'is not', null)
    .orderBy('answered_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** Records the one answer of a practice attempt; undefined when it was already answered. */
export function answerPractice(
  db: DbOrTrx,
  answer: Required<Pick<RunPracticeTable, 'credit_thousandths' | 'decision' | 'feedback' | 'result' | 'time_ms'>> & {
    id: string;
    at: string;
  },
): Promise<PracticeRow | undefined> {
  const { id, at, ...figures } = answer;
  return db
    .updateTable('run_practice')
    .set({ ...figures, answered_at: at })
    .where('id', '=', id)
    .where('answered_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
