import { z } from 'zod';
import { pageOf, pageQuerySchema, sortDirectionSchema } from '../paging/paging';
import {
  decisionCreditFields,
  RUN_STATUSES,
  runResultSchema,
  skillScoreSchema,
  verdictCountsSchema,
} from '../runs/runs.schema';
import { stepResultSchema, techniqueRefSchema } from '../runs/step-answers.schema';
import { ESTIMATE_TERMS } from '../scenarios/step-kinds';

// The API of progress and reporting (/api/progress): the dashboard, Training Progress, the after-action
// report and the ATT&CK skill map. Every record carries its step count, so no screen counts steps itself.

export const progressUserParamsSchema = z.object({ email: z.string().trim().min(1).max(254) });
export const progressRunParamsSchema = z.object({ runId: z.string().min(1).max(100) });

/** One decision of a run, as the Decision Timeline lists it. */
export const progressDecisionSchema = z.object({
  seq: z.number().int(),
  stepId: z.string(),
  decision: z.string(),
  feedback: z.string(),
  correct: z.boolean(),
  technique: techniqueRefSchema.nullable(),
  timeMs: z.number().int().nullable(),
  at: z.string(),
  ...decisionCreditFields,
});
export type ProgressDecision = z.infer<typeof progressDecisionSchema>;

/** The figures every run row shows, decided by the shared progress rules. */
const runFigures = {
  scenarioId: z.string(),
  /** The name as it was when the run started, falling back to the scenario id. */
  scenarioName: z.string(),
  /** 0 when unknown (then the percent and the result are '-'). */
  stepCount: z.number().int(),
  /** The sum of credits (may have fractions). */
  score: z.number(),
  /** The same score, exactly, in thousandths. */
  scoreThousandths: z.number().int(),
  /** What the percent divides by, in steps (see runStateSchema.percentBase); 0 when unknown. */
  percentBase: z.number().int(),
  scorePercent: z.number().int().nullable(),
  /** Pass, Fail, "Awaiting review" (a completed run with a written answer not yet graded) or '-'. */
  result: runResultSchema,
  /** Written answers waiting for an instructor. */
  pendingReviews: z.number().int(),
  status: z.enum(RUN_STATUSES),
  completed: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
};

export const progressRunSchema = z.object({
  id: z.string(),
  ...runFigures,
  /** Whole seconds from start to finish; null while the run is in progress. */
  durationSeconds: z.number().int().nullable(),
  /** The scenario is still in the library (not deleted). */
  scenarioAvailable: z.boolean(),
  /** In progress and its scenario still exists: the player can pick it up where it stopped. */
  resumable: z.boolean(),
  timeline: z.array(progressDecisionSchema),
});
export type ProgressRun = z.infer<typeof progressRunSchema>;

export const progressSummarySchema = z.object({
  runsTotal: z.number().int(),
  runsCompleted: z.number().int(),
  runsPassed: z.number().int(),
  /** Completed runs whose written answers wait for an instructor: neither passed nor failed yet. */
  runsAwaitingReview: z.number().int(),
  /** Passed runs over completed runs with a Pass or Fail (runs awaiting review left out), as a whole percent; null before the first. */
  passRatePercent: z.number().int().nullable(),
  /** The mean score percent of completed runs with a known step count; null when there are none. */
  averageScorePercent: z.number().int().nullable(),
});
export type ProgressSummary = z.infer<typeof progressSummarySchema>;

export const recommendedScenarioSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  difficulty: z.number().int(),
  description: z.string(),
  stepCount: z.number().int(),
  /** Why it is recommended, in a sentence. */
  reason: z.string(),
  /** The techniques the user missed that this scenario practises. */
  practises: z.array(techniqueRefSchema),
});
export type RecommendedScenario = z.infer<typeof recommendedScenarioSchema>;

/** GET /api/progress/user/:email: everything the Progress Dashboard draws, in one response. */
export const userProgressSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }),
  platformDifficulty: z.number().int(),
  summary: progressSummarySchema,
  /** Newest first. */
  runs: z.array(progressRunSchema),
  /** At most three scenarios the user has not completed yet. */
  recommendations: z.array(recommendedScenarioSchema),
});
export type UserProgress = z.infer<typeof userProgressSchema>;

// ---- Training Progress (admin) ---------------------------------------------------------------------

export const TRAINING_PROGRESS_SORT_COLUMNS = ['user', 'training', 'score', 'result', 'status', 'started'] as const;
export type TrainingProgressSortColumn = (typeof TRAINING_PROGRESS_SORT_COLUMNS)[number];

export const trainingProgressFilterSchema = z.object({
  /** Username search: the user's email or name contains this, ignoring case. */
  search: z.string().trim().max(200).optional(),
});

export const trainingProgressQuerySchema = trainingProgressFilterSchema.extend({
  ...pageQuerySchema.shape,
  sort: z.enum(TRAINING_PROGRESS_SORT_COLUMNS).default('started'),
  dir: sortDirectionSchema.default('desc'),
});
/** A whole query as the screen sends it (every field set). */
export type TrainingProgressQuery = z.output<typeof trainingProgressQuerySchema>;

export const trainingProgressRowSchema = z.object({
  runId: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  userName: z.string(),
  ...runFigures,
  /** Right first answers of the run, as its end screen counts them. */
  rightAnswers: z.number().int(),
  /** Missed steps of the run: first answers partly right or wrong. */
  missedSteps: z.number().int(),
});
export type TrainingProgressRow = z.infer<typeof trainingProgressRowSchema>;

/** A row of the Training Progress page: the run's figures and its credit per analyst skill. */
export const trainingProgressItemSchema = trainingProgressRowSchema.extend({
  /** Credit per analyst skill over the run's first submissions on scored steps (the skills met). */
  skills: z.array(skillScoreSchema),
});
export type TrainingProgressItem = z.infer<typeof trainingProgressItemSchema>;

export const trainingProgressPageSchema = pageOf(trainingProgressItemSchema);
export type TrainingProgressPage = z.infer<typeof trainingProgressPageSchema>;

export const TRAINING_PROGRESS_CSV_FILENAME = 'training_progress.csv';
export const TRAINING_PROGRESS_XLSX_FILENAME = 'training_progress.xlsx';
export const TRAINING_PROGRESS_CSV_COLUMNS = [
  'User',
  'Name',
  'Training',
  'Score',
  'Steps',
  'Score (%)',
  'Right answers',
  'Missed steps',
  'Result',
  'Status',
  'Started',
  'Finished',
  'Run',
] as const;

// ---- Timeline and after-action report -----------------------------------------------------------------

export const runTimelineSchema = z.object({ runId: z.string(), timeline: z.array(progressDecisionSchema) });
export type RunTimeline = z.infer<typeof runTimelineSchema>;

export const reportDecisionSchema = progressDecisionSchema.extend({
  /** The step's title in the scenario as it is now; null when the step is no longer there. */
  stepTitle: z.string().nullable(),
  optionIndex: z.number().int(),
  /** The key in words (the right option's text, the accepted terms, the grade...); null when unknown. */
  correctAnswer: z.string().nullable(),
  /** The revealed key and per-element feedback as recorded; null for decisions from before step kinds. */
  result: stepResultSchema.nullable(),
});
export type ReportDecision = z.infer<typeof reportDecisionSchema>;

export const reportTechniqueSchema = techniqueRefSchema.extend({
  url: z.string().nullable(),
  /** Right first answers on steps of this technique. */
  right: z.number().int(),
  /** Missed steps of this technique: first answers partly right or wrong. */
  wrong: z.number().int(),
});
export type ReportTechnique = z.infer<typeof reportTechniqueSchema>;

export const practiceScenarioSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  difficulty: z.number().int(),
  /** The missed techniques this scenario's steps cover. */
  practises: z.array(techniqueRefSchema),
});
export type PracticeScenario = z.infer<typeof practiceScenarioSchema>;

/** GET /api/progress/runs/:runId/report: the after-action report of one run. */
export const runReportSchema = z.object({
  run: z.object({
    id: z.string(),
    ...runFigures,
    statusLabel: z.enum(['Completed', 'Incomplete']),
    durationSeconds: z.number().int().nullable(),
    /** Right first answers / missed steps, as the end screen counts them. */
    correctCount: z.number().int(),
    incorrectCount: z.number().int(),
    verdicts: verdictCountsSchema,
  }),
  trainee: z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }),
  scenario: z.object({
    /** The scenario row is still there (even if deleted from the library), so its text could be read. */
    known: z.boolean(),
    deleted: z.boolean(),
    type: z.string().nullable(),
    difficulty: z.number().int().nullable(),
    description: z.string().nullable(),
    sources: z.array(z.object({ title: z.string(), url: z.string() })),
    /** A sentence about what could not be shown, or null. */
    note: z.string().nullable(),
  }),
  decisions: z.array(reportDecisionSchema),
  techniques: z.array(reportTechniqueSchema),
  /** Credit per analyst skill over the run's first submissions on scored steps. */
  skills: z.array(skillScoreSchema),
  practiseNext: z.array(practiceScenarioSchema),
  generatedAt: z.string(),
  /** The trainee's notebook (features/casefile): in their own copy only, never in an admin's; null when empty. */
  notebook: z.string().nullable(),
});
export type RunReport = z.infer<typeof runReportSchema>;

// ---- ATT&CK skill map ----------------------------------------------------------------------------------

export const skillsQuerySchema = z.object({
  /** Whose skills (admins only, for someone else); the caller's own by default. */
  userId: z.string().trim().min(1).max(100).optional(),
  /** Everyone together (admins only). */
  all: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});
export type SkillsQuery = z.input<typeof skillsQuerySchema>;

export const techniqueSkillSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** "T1566.001 Phishing: Spearphishing Attachment". */
  label: z.string(),
  /** Tactic shortnames in matrix order; empty when the id is not in the ATT&CK dataset. */
  tactics: z.array(z.string()),
  subtechniqueOf: z.string().nullable(),
  url: z.string().nullable(),
  attempts: z.number().int(),
  correct: z.number().int(),
  /** The credit earned on first submissions of scored steps with this technique (sum). */
  credit: z.number(),
  /** Share of answers that were right, 0..100. */
  sharePercent: z.number().int(),
});
export type TechniqueSkill = z.infer<typeof techniqueSkillSchema>;

/** One row of the reliability diagram: how often a term was used, what it states, how often it came true. */
export const reliabilityRowSchema = z.object({
  term: z.enum(ESTIMATE_TERMS),
  label: z.string(),
  /** The probability the term states (ESTIMATE_TERM_INFO). */
  probability: z.number(),
  count: z.number().int(),
  /** The share of those estimates whose statement came true, 0 to 1. */
  observedFrequency: z.number(),
});
export type ReliabilityRow = z.infer<typeof reliabilityRowSchema>;

/** Calibration over every estimate's first submission: the Brier score and the reliability table. */
export const calibrationSchema = z.object({
  estimates: z.number().int(),
  /** Estimates needed before calibration is judged (CALIBRATION_MIN_ESTIMATES). */
  estimatesNeeded: z.number().int(),
  /** Mean of (p - outcome)^2, 0 (perfect) to 1; null before the first estimate. */
  brierScore: z.number().nullable(),
  /** The Brier score in words ("well calibrated"...); null before estimatesNeeded estimates. */
  verdict: z.string().nullable(),
  /** One row per term used, from least to most likely. */
  reliability: z.array(reliabilityRowSchema),
});
export type Calibration = z.infer<typeof calibrationSchema>;

export const skillsSchema = z.object({
  scope: z.object({
    kind: z.enum(['user', 'all']),
    /** The trainee whose skills these are; null for everyone together. */
    user: z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  }),
  attackVersion: z.string(),
  techniques: z.array(techniqueSkillSchema),
  totals: z.object({ attempts: z.number().int(), correct: z.number().int(), techniques: z.number().int() }),
  /** Credit per analyst skill over every first submission on a scored step (every skill, attempted or not). */
  analystSkills: z.array(skillScoreSchema),
  calibration: calibrationSchema,
});
export type Skills = z.infer<typeof skillsSchema>;

// ---- ATT&CK Navigator layer (format 4.5) -----------------------------------------------------------

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/**
 * The fields and types of an ATT&CK Navigator layer, format 4.5 (mitre-attack/attack-navigator
 * layers/spec/v4.5/layerformat.md), as this product writes them.
 */
export const navigatorLayerSchema = z.object({
  name: z.string().min(1),
  versions: z.object({
    attack: z.string().regex(/^\d+$/),
    navigator: z.string().regex(/^\d+\.\d+\.\d+$/),
    layer: z.literal('4.5'),
  }),
  domain: z.literal('enterprise-attack'),
  description: z.string(),
  sorting: z.number().int().min(0).max(3),
  layout: z.object({
    layout: z.enum(['side', 'flat', 'mini']),
    aggregateFunction: z.enum(['average', 'min', 'max', 'sum']),
    showID: z.boolean(),
    showName: z.boolean(),
    showAggregateScores: z.boolean(),
    countUnscored: z.boolean(),
    expandedSubtechniques: z.enum(['none', 'annotated', 'all']),
  }),
  hideDisabled: z.boolean(),
  techniques: z.array(
    z.strictObject({
      techniqueID: z.string().regex(/^T\d{4}(\.\d{3})?$/),
      score: z.number().min(0).max(100).optional(),
      comment: z.string(),
      enabled: z.boolean(),
      showSubtechniques: z.boolean().optional(),
    }),
  ),
  gradient: z
    .object({ colors: z.array(hexColor).min(2), minValue: z.number(), maxValue: z.number() })
    .refine((gradient) => gradient.maxValue > gradient.minValue, 'maxValue must be above minValue'),
  legendItems: z.array(z.object({ label: z.string().min(1), color: hexColor })),
  metadata: z.array(z.object({ name: z.string(), value: z.string() })),
  links: z.array(z.object({ label: z.string(), url: z.string() })),
  showTacticRowBackground: z.boolean(),
  tacticRowBackground: hexColor,
  selectTechniquesAcrossTactics: z.boolean(),
  selectSubtechniquesWithParent: z.boolean(),
  selectVisibleTechniques: z.boolean(),
});
export type NavigatorLayerFile = z.infer<typeof navigatorLayerSchema>;
