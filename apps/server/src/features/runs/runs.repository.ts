import type { NextStep } from '@tradecraft/shared';
import type { Insertable, Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import type { Run, RunDecisionsTable, RunPracticeTable, StepReviewsTable } from '../../db/schema';

export type RunDecisionRow = Selectable<RunDecisionsTable>;

/** The columns of a scenario the run engine reads (deleted ones too: old runs still show their data). */
export interface ScenarioForRun {
  id: string;
  name: string;
  step_count: number;
  definition: string;
  deleted_at: string | null;
}

export function findScenarioForRun(db: DbOrTrx, id: string): Promise<ScenarioForRun | undefined> {
  return db
    .selectFrom('scenarios')
    .select(['id', 'name', 'step_count', 'definition', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertRun(db: DbOrTrx, run: Run): Promise<void> {
  await db.insertInto('runs').values(run).execute();
}

export function findRun(db: DbOrTrx, id: string): Promise<Run | undefined> {
  return db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listDecisions(db: DbOrTrx, runId: string): Promise<RunDecisionRow[]> {
  return db.selectFrom('run_decisions').selectAll().where('run_id', '=', runId).orderBy('seq', 'asc').execute();
}

/**
 * Claims the run's current step for one answer: succeeds only while that step is current and unanswered
 * in a run in progress, so of two answers racing for the same step exactly one gets the claimed run back
 * (as it is after the claim). On PostgreSQL the row stays locked until the transaction ends, so the loser
 * re-checks the condition after the winner commits.
 */
export function claimCurrentStepReturningRun(
  db: DbOrTrx,
  claim: { runId: string; stepId: string; at: string },
): Promise<Run | undefined> {
  return db
    .updateTable('runs')
    .set({ current_answered: 1, updated_at: claim.at })
    .where('id', '=', claim.runId)
    .where('status', '=', 'in_progress')
    .where('current_step_id', '=', claim.stepId)
    .where('current_answered', '=', 0)
    .returningAll()
    .executeTakeFirst();
}

/** What an answer changes on its (claimed) run. */
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

/** Writes an answer's figures on the run claimed for it and returns the run as it now is. */
export function recordAnswer(db: DbOrTrx, runId: string, changes: AnsweredRunChanges): Promise<Run> {
  return db
    .updateTable('runs')
    .set({ ...changes, visit_submitted: 1 })
    .where('id', '=', runId)
    .returningAll()
    .executeTakeFirstOrThrow();
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

export async function nextDecisionSeq(db: DbOrTrx, runId: string): Promise<number> {
  const row = await db
    .selectFrom('run_decisions')
    .select((eb) => eb.fn.max('seq').as('last'))
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

/** Inserts a decision and returns its id. */
export async function insertDecision(db: DbOrTrx, decision: Insertable<RunDecisionsTable>): Promise<number> {
  const row = await db.insertInto('run_decisions').values(decision).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Opens a written answer's review for an instructor. */
export async function insertReview(db: DbOrTrx, review: Insertable<StepReviewsTable>): Promise<void> {
  await db.insertInto('step_reviews').values(review).execute();
}

/**
 * Moves on from the answered step the caller saw (`fromStepId` answered with `optionIndex`) and returns the
 * run as it is after the move; changes nothing and returns undefined when the run is no longer in that state
 * (a second Next, another tab, a finished run). Going to a step starts a new visit (hint closed, nothing
 * submitted); a Retry stays on the visit; finishing completes the run with the given percent base.
 */
export function moveRunReturningRun(
  db: DbOrTrx,
  move: { runId: string; fromStepId: string; optionIndex: number; to: NextStep; percentBase: number; at: string },
): Promise<Run | undefined> {
  const changes =
    move.to.kind === 'finish'
      ? { status: 'completed' as const, finished_at: move.at, percent_base: move.percentBase, updated_at: move.at }
      : move.to.kind === 'retry'
        ? { current_answered: 0, last_option_index: null, last_credit_thousandths: null, updated_at: move.at }
        : {
            current_step_id: move.to.stepId,
            current_answered: 0,
            last_option_index: null,
            last_credit_thousandths: null,
            visit_submitted: 0,
            hint_opened: 0,
            updated_at: move.at,
          };
  return db
    .updateTable('runs')
    .set(changes)
    .where('id', '=', move.runId)
    .where('status', '=', 'in_progress')
    .where('current_step_id', '=', move.fromStepId)
    .where('current_answered', '=', 1)
    .where('last_option_index', '=', move.optionIndex)
    .returningAll()
    .executeTakeFirst();
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
export function findLatestRunOf(db: DbOrTrx, of: { userId: string; scenarioId: string }): Promise<Run | undefined> {
  return db
    .selectFrom('runs')
    .selectAll()
    .where('user_id', '=', of.userId)
    .where('scenario_id', '=', of.scenarioId)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The trainee's run of a scenario in progress (a unique index allows one). */
export function findRunInProgressOf(db: DbOrTrx, of: { userId: string; scenarioId: string }): Promise<Run | undefined> {
  return db
    .selectFrom('runs')
    .selectAll()
    .where('user_id', '=', of.userId)
    .where('scenario_id', '=', of.scenarioId)
    .where('status', '=', 'in_progress')
    .executeTakeFirst();
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
