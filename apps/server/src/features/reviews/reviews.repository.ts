import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import type { Run, StepReviewsTable } from '../../db/schema';

// Every query of the instructor review queue (written answers of `write` steps).

export type StepReviewRow = Selectable<StepReviewsTable>;

export interface ReviewFilters {
  status: 'pending' | 'graded';
  scenarioId?: string | undefined;
  userId?: string | undefined;
}

/** A review with what its list row shows: the trainee, the scenario name and the decision's credit. */
export interface ReviewListRow extends StepReviewRow {
  email: string;
  first_name: string;
  last_name: string;
  scenario_name: string;
  credit_thousandths: number;
  /** The scenario version the run played (its rubric is the one the answer was written for). */
  version_id: string | null;
}

function filtered(db: DbOrTrx, filters: ReviewFilters) {
  return db
    .selectFrom('step_reviews')
    .innerJoin('users', 'users.id', 'step_reviews.user_id')
    .innerJoin('runs', 'runs.id', 'step_reviews.run_id')
    .innerJoin('run_decisions', 'run_decisions.id', 'step_reviews.decision_id')
    .where('step_reviews.status', '=', filters.status)
    .$if(filters.scenarioId !== undefined, (qb) => qb.where('step_reviews.scenario_id', '=', filters.scenarioId!))
    .$if(filters.userId !== undefined, (qb) => qb.where('step_reviews.user_id', '=', filters.userId!));
}

const LIST_COLUMNS = [
  'step_reviews.id',
  'step_reviews.decision_id',
  'step_reviews.run_id',
  'step_reviews.user_id',
  'step_reviews.scenario_id',
  'step_reviews.step_id',
  'step_reviews.status',
  'step_reviews.auto_thousandths',
  'step_reviews.hint_cost_thousandths',
  'step_reviews.points',
  'step_reviews.comment',
  'step_reviews.graded_by',
  'step_reviews.submitted_at',
  'step_reviews.graded_at',
  'users.email',
  'users.first_name',
  'users.last_name',
  'runs.scenario_name',
  'runs.version_id',
  'run_decisions.credit_thousandths',
] as const;

/** One page of reviews: pending oldest first (a queue), graded newest grade first; and the total. */
export async function listReviews(
  db: DbOrTrx,
  filters: ReviewFilters,
  paging: { page: number; pageSize: number },
): Promise<{ rows: ReviewListRow[]; total: number }> {
  const direction = filters.status === 'pending' ? 'asc' : 'desc';
  const order = filters.status === 'pending' ? 'step_reviews.submitted_at' : 'step_reviews.graded_at';
  const [rows, count] = await Promise.all([
    filtered(db, filters)
      .select(LIST_COLUMNS)
      .orderBy(order, direction)
      .orderBy('step_reviews.id', direction)
      .limit(paging.pageSize)
      .offset((paging.page - 1) * paging.pageSize)
      .execute(),
    filtered(db, filters)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.count) };
}

export function findReview(db: DbOrTrx, id: number): Promise<ReviewListRow | undefined> {
  return db
    .selectFrom('step_reviews')
    .innerJoin('users', 'users.id', 'step_reviews.user_id')
    .innerJoin('runs', 'runs.id', 'step_reviews.run_id')
    .innerJoin('run_decisions', 'run_decisions.id', 'step_reviews.decision_id')
    .select(LIST_COLUMNS)
    .where('step_reviews.id', '=', id)
    .executeTakeFirst();
}

/** The decision's recorded result (JSON) of a review. */
export async function findDecisionResult(db: DbOrTrx, decisionId: number): Promise<string | null> {
  const row = await db.selectFrom('run_decisions').select('result').where('id', '=', decisionId).executeTakeFirst();
  return row?.result ?? null;
}

export { findPlayedDefinition as findReviewDefinition } from '../../plugins/played-definition.repository';

/**
 * Grades a pending review once: succeeds only while it is pending, so two instructors grading at once cannot
 * both change the score.
 */
export async function markGraded(
  db: DbOrTrx,
  grade: { id: number; points: string; comment: string; gradedBy: string; at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('step_reviews')
    .set({
      status: 'graded',
      points: grade.points,
      comment: grade.comment,
      graded_by: grade.gradedBy,
      graded_at: grade.at,
    })
    .where('id', '=', grade.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The decision's final credit, whether the answer itself earned full credit (before a hint's charge), and its result. */
export async function updateDecisionCredit(
  db: DbOrTrx,
  decisionId: number,
  credit: { thousandths: number; rawThousandths: number; result: string },
): Promise<void> {
  await db
    .updateTable('run_decisions')
    .set({
      credit_thousandths: credit.thousandths,
      correct: credit.rawThousandths >= 1000 ? 1 : 0,
      result: credit.result,
    })
    .where('id', '=', decisionId)
    .execute();
}

/** Moves the run's score by the grade's change and closes one pending review; returns the run as it is now. */
export function applyGradeToRun(db: DbOrTrx, runId: string, change: { thousandths: number; at: string }): Promise<Run> {
  return db
    .updateTable('runs')
    .set((eb) => ({
      score_thousandths: eb('score_thousandths', '+', change.thousandths),
      pending_reviews: eb('pending_reviews', '-', 1),
      updated_at: change.at,
    }))
    .where('id', '=', runId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
