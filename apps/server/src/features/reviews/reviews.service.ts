import {
  chargeHint,
  DEFAULT_AUTO_WEIGHT,
  REVIEW_MESSAGES,
  toThousandths,
  writeFinalCredit,
  type gradeReviewInputSchema,
  type ReviewDetail,
  type ReviewItem,
  type ReviewList,
  type reviewListQuerySchema,
  type StepOfKind,
  type StepResultOfKind,
} from '@tradecraft/shared';
import type { z } from 'zod';
import { nowIso } from '../../clock';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { insertNotifications, notifyRecipients } from '../notifications/notifications.service';
import { parseStepResult, parseStoredDefinition, runFigures } from '../runs/run-figures';
import {
  applyGradeToRun,
  findDecisionResult,
  findReview,
  findReviewDefinition,
  listReviews,
  markGraded,
  updateDecisionCredit,
  type ReviewListRow,
} from './reviews.repository';

// The instructor review queue: admins grade written answers by rubric. Grading sets the step's final credit,
// moves the run's score and result, tells the trainee through the bell and is written to the audit log.

const REVIEW_SCREEN = 'Review Queue';

function toItem(row: ReviewListRow, stepTitle: string | null): ReviewItem {
  return {
    id: row.id,
    status: row.status,
    runId: row.run_id,
    scenarioId: row.scenario_id,
    scenarioName: row.scenario_name,
    stepId: row.step_id,
    stepTitle,
    trainee: { id: row.user_id, email: row.email, firstName: row.first_name, lastName: row.last_name },
    submittedAt: row.submitted_at,
    gradedAt: row.graded_at,
    credit: row.credit_thousandths / 1000,
  };
}

/** The write step a review is about, from the version its run played (deleted scenarios too). */
async function writeStepOf(db: Db, row: ReviewListRow): Promise<StepOfKind<'write'> | undefined> {
  const text = await findReviewDefinition(db, row);
  const step = text ? parseStoredDefinition(text)?.steps.find((candidate) => candidate.id === row.step_id) : undefined;
  return step?.kind === 'write' ? step : undefined;
}

/** GET /api/reviews: a page of the queue, filtered by status, scenario and trainee. */
export async function reviewQueue(db: Db, query: z.output<typeof reviewListQuerySchema>): Promise<ReviewList> {
  const { rows, total } = await listReviews(
    db,
    { status: query.status, scenarioId: query.scenarioId, userId: query.userId },
    query,
  );
  // One definition read per scenario version on the page, never one per row.
  const versionKey = (row: ReviewListRow) => row.version_id ?? `current:${row.scenario_id}`;
  const titles = new Map<string, Map<string, string>>();
  for (const row of rows) {
    if (titles.has(versionKey(row))) continue;
    const text = await findReviewDefinition(db, row);
    titles.set(
      versionKey(row),
      new Map((text ? (parseStoredDefinition(text)?.steps ?? []) : []).map((step) => [step.id, step.title])),
    );
  }
  return {
    items: rows.map((row) => toItem(row, titles.get(versionKey(row))?.get(row.step_id) ?? null)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function detailOf(db: Db, row: ReviewListRow): Promise<ReviewDetail> {
  const [step, resultText] = await Promise.all([writeStepOf(db, row), findDecisionResult(db, row.decision_id)]);
  const result = parseStepResult(resultText);
  const written = result?.kind === 'write' ? result : undefined;
  return {
    ...toItem(row, step?.title ?? null),
    prompt: step?.prompt ?? '',
    text: written?.text ?? '',
    wordCount: written?.wordCount ?? 0,
    maxWords: written?.maxWords ?? step?.max_words ?? 0,
    checks: written?.checks ?? [],
    autoCredit: row.auto_thousandths / 1000,
    autoWeight: written?.autoWeight ?? step?.auto_weight ?? DEFAULT_AUTO_WEIGHT,
    hintCharged: row.hint_cost_thousandths > 0,
    hintCost: row.hint_cost_thousandths / 1000,
    rubric: (step?.rubric ?? written?.rubric ?? []).map((criterion) => ({
      criterion: criterion.criterion,
      points: criterion.points,
    })),
    modelAnswer: step?.model_answer ?? written?.modelAnswer ?? '',
    points: row.points ? (JSON.parse(row.points) as number[]) : null,
    comment: row.comment,
    gradedBy: row.graded_by,
  };
}

/** GET /api/reviews/:id: one submission with its checks, the rubric and the model answer. */
export async function reviewDetail(db: Db, id: number): Promise<ReviewDetail> {
  const row = await findReview(db, id);
  if (!row) throw notFound(REVIEW_MESSAGES.notFound);
  return detailOf(db, row);
}

/**
 * POST /api/reviews/:id/grade: points per rubric criterion and a comment. The final credit is the automatic
 * share + (1 - auto_weight) x points / maximum, charged for a hint the same way the automatic share was.
 */
export async function gradeReview(
  db: Db,
  admin: User,
  id: number,
  input: z.output<typeof gradeReviewInputSchema>,
): Promise<ReviewDetail> {
  const row = await findReview(db, id);
  if (!row) throw notFound(REVIEW_MESSAGES.notFound);
  if (row.status !== 'pending') throw conflict(REVIEW_MESSAGES.alreadyGraded);
  const step = await writeStepOf(db, row);
  if (!step) throw conflict(REVIEW_MESSAGES.scenarioGone);
  if (input.points.length !== step.rubric.length) throw badRequest(REVIEW_MESSAGES.pointsCount);
  if (input.points.some((points, index) => points > (step.rubric[index]?.points ?? 0)))
    throw badRequest(REVIEW_MESSAGES.pointsTooHigh);

  const result = parseStepResult(await findDecisionResult(db, row.decision_id));
  const written: StepResultOfKind<'write'> | undefined = result?.kind === 'write' ? result : undefined;
  const autoWeight = written?.autoWeight ?? step.auto_weight ?? DEFAULT_AUTO_WEIGHT;
  const rawAuto = written?.rawCredit ?? row.auto_thousandths / 1000;
  const rawFinal = toThousandths(writeFinalCredit(rawAuto, autoWeight, input.points, step.rubric));
  const finalThousandths =
    row.hint_cost_thousandths > 0 ? chargeHint(rawFinal, row.hint_cost_thousandths / 1000) : rawFinal;
  const at = nowIso();

  const run = await db.transaction().execute(async (trx) => {
    if (
      !(await markGraded(trx, {
        id,
        points: JSON.stringify(input.points),
        comment: input.comment,
        gradedBy: admin.email,
        at,
      }))
    ) {
      throw conflict(REVIEW_MESSAGES.alreadyGraded);
    }
    const graded = written
      ? {
          ...written,
          credit: finalThousandths / 1000,
          creditThousandths: finalThousandths,
          rawCredit: rawFinal / 1000,
          verdict: rawFinal >= 1000 ? ('right' as const) : rawFinal > 0 ? ('partial' as const) : ('wrong' as const),
          review: { status: 'graded' as const, points: input.points, comment: input.comment || null, gradedAt: at },
        }
      : null;
    await updateDecisionCredit(trx, row.decision_id, {
      thousandths: finalThousandths,
      rawThousandths: rawFinal,
      result: graded ? JSON.stringify(graded) : 'null',
    });
    const updated = await applyGradeToRun(trx, row.run_id, {
      thousandths: finalThousandths - row.credit_thousandths,
      at,
    });
    const figures = runFigures(updated);
    await insertNotifications(trx, [row.user_id], {
      kind: 'review_graded',
      message:
        `Your written answer in "${row.scenario_name}" was graded: ${Math.round(finalThousandths / 10)} % of the step.` +
        (figures.result === 'Pass' || figures.result === 'Fail'
          ? ` The run now shows ${figures.scorePercent} %, ${figures.result}.`
          : ''),
      link: `/runs/${row.run_id}/report`,
    });
    await recordAudit(trx, {
      actor: admin.email,
      action: 'grade written answer',
      details:
        `Graded ${row.email}'s answer to "${step.title}" in "${row.scenario_name}" (run ${row.run_id}): ` +
        `${input.points.join(' + ')} of ${step.rubric.map((criterion) => criterion.points).join(' + ')} points, final credit ${finalThousandths / 1000}`,
      screen: REVIEW_SCREEN,
    });
    return updated;
  });
  // After the commit: the trainee's bell fetches a row that now exists.
  await notifyRecipients(db, [run.user_id]);

  const fresh = await findReview(db, id);
  if (!fresh) throw notFound(REVIEW_MESSAGES.notFound);
  return detailOf(db, fresh);
}
