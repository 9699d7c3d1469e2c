import { z } from 'zod';
import { reviewStatusSchema, writeCheckResultSchema } from '../runs/step-answers.schema';

// The instructor review queue (/api/reviews, admins): written answers (`write` steps) waiting for a grade by
// rubric. Grading sets the step's final credit = auto share + (1 - auto_weight) x points / maximum, updates
// the run's score and result, notifies the trainee and is audited.

export const reviewIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

export const reviewListQuerySchema = z.object({
  /** pending (default) or graded. */
  status: reviewStatusSchema.default('pending'),
  scenarioId: z.string().trim().min(1).max(100).optional(),
  /** The trainee's user id. */
  userId: z.string().trim().min(1).max(100).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ReviewListQuery = z.input<typeof reviewListQuerySchema>;

const traineeSchema = z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() });

export const reviewItemSchema = z.object({
  id: z.number().int(),
  status: reviewStatusSchema,
  runId: z.string(),
  scenarioId: z.string(),
  scenarioName: z.string(),
  stepId: z.string(),
  /** The step's title as the scenario has it now; null when gone. */
  stepTitle: z.string().nullable(),
  trainee: traineeSchema,
  submittedAt: z.string(),
  gradedAt: z.string().nullable(),
  /** The step's credit now: the automatic share while pending, the final credit once graded. */
  credit: z.number(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

export const reviewListSchema = z.object({
  /** Oldest submission first (pending), newest grade first (graded). */
  items: z.array(reviewItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ReviewList = z.infer<typeof reviewListSchema>;

export const reviewDetailSchema = reviewItemSchema.extend({
  prompt: z.string(),
  text: z.string(),
  wordCount: z.number().int(),
  maxWords: z.number().int(),
  checks: z.array(writeCheckResultSchema),
  /** The automatic share earned (auto_weight x checks passed), after any hint charge. */
  autoCredit: z.number(),
  autoWeight: z.number(),
  /** The hint was opened before the submission: the final credit is charged the same way. */
  hintCharged: z.boolean(),
  hintCost: z.number(),
  rubric: z.array(z.object({ criterion: z.string(), points: z.number().int() })),
  modelAnswer: z.string(),
  /** Points given per criterion once graded. */
  points: z.array(z.number().int()).nullable(),
  comment: z.string().nullable(),
  /** The instructor who graded it. */
  gradedBy: z.string().nullable(),
});
export type ReviewDetail = z.infer<typeof reviewDetailSchema>;

export const REVIEW_COMMENT_MAX = 4000;

/** POST /api/reviews/:id/grade: points per rubric criterion (in rubric order, 0 to its points) and a comment. */
export const gradeReviewInputSchema = z.object({
  points: z
    .array(z.int({ error: 'Points are whole numbers.' }).min(0, 'Points cannot be negative.').max(100))
    .min(1)
    .max(10),
  comment: z
    .string()
    .trim()
    .max(REVIEW_COMMENT_MAX, `The comment is at most ${REVIEW_COMMENT_MAX} characters.`)
    .default(''),
});
export type GradeReviewInput = z.input<typeof gradeReviewInputSchema>;

export const REVIEW_MESSAGES = {
  notFound: 'No such submission.',
  alreadyGraded: 'This submission has already been graded.',
  pointsCount: 'Give points for every rubric criterion, in order.',
  pointsTooHigh: 'A criterion cannot get more points than it is worth.',
  scenarioGone: 'The scenario of this submission is gone, so its rubric is unknown.',
} as const;
