import type { NextStep } from '@tradecraft/shared';
import type { Insertable, Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import type { Run, RunDecisionsTable } from '../../db/schema';

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
  claim: { runId: string; stepId: string; optionIndex: number; at: string },
): Promise<Run | undefined> {
  return db
    .updateTable('runs')
    .set({ current_answered: 1, last_option_index: claim.optionIndex, updated_at: claim.at })
    .where('id', '=', claim.runId)
    .where('status', '=', 'in_progress')
    .where('current_step_id', '=', claim.stepId)
    .where('current_answered', '=', 0)
    .returningAll()
    .executeTakeFirst();
}

/** The claim of claimCurrentStepReturningRun as a yes/no. */
export async function claimCurrentStep(
  db: DbOrTrx,
  claim: { runId: string; stepId: string; optionIndex: number; at: string },
): Promise<boolean> {
  return (await claimCurrentStepReturningRun(db, claim)) !== undefined;
}

/** Writes the run's new score and technique counts and returns the run as it now is. */
export async function updateRunScore(
  db: DbOrTrx,
  runId: string,
  score: { score: number; techniqueCounts: string; at: string },
): Promise<Run> {
  return db
    .updateTable('runs')
    .set({ score: score.score, technique_counts: score.techniqueCounts, updated_at: score.at })
    .where('id', '=', runId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function nextDecisionSeq(db: DbOrTrx, runId: string): Promise<number> {
  const row = await db
    .selectFrom('run_decisions')
    .select((eb) => eb.fn.max('seq').as('last'))
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

export async function insertDecision(db: DbOrTrx, decision: Insertable<RunDecisionsTable>): Promise<void> {
  await db.insertInto('run_decisions').values(decision).execute();
}

/**
 * Moves on from the answered step the caller saw (`fromStepId` answered with `optionIndex`) and returns the
 * run as it is after the move; changes nothing and returns undefined when the run is no longer in that state
 * (a second Next, another tab, a finished run).
 */
export function moveRunReturningRun(
  db: DbOrTrx,
  move: { runId: string; fromStepId: string; optionIndex: number; to: NextStep; at: string },
): Promise<Run | undefined> {
  const changes =
    move.to.kind === 'finish'
      ? { status: 'completed' as const, finished_at: move.at, updated_at: move.at }
      : {
          current_step_id: move.to.kind === 'step' ? move.to.stepId : move.fromStepId,
          current_answered: 0,
          last_option_index: null,
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

/** The move of moveRunReturningRun as a yes/no. */
export async function moveRun(
  db: DbOrTrx,
  move: { runId: string; fromStepId: string; optionIndex: number; to: NextStep; at: string },
): Promise<boolean> {
  return (await moveRunReturningRun(db, move)) !== undefined;
}

/** Ends a run in progress at once and returns it ended; undefined when it had already finished. */
export function endRun(db: DbOrTrx, runId: string, at: string): Promise<Run | undefined> {
  return db
    .updateTable('runs')
    .set({ status: 'ended', finished_at: at, updated_at: at })
    .where('id', '=', runId)
    .where('status', '=', 'in_progress')
    .returningAll()
    .executeTakeFirst();
}
