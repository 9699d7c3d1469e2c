import { z } from 'zod';
import { STEP_KINDS, SKILLS } from '../scenarios/step-kinds';
import { playerStepSchema, stepResultSchema, techniqueRefSchema } from './step-answers.schema';
import { DECISION_VERDICTS } from './verdict';

/** A recorded answer's verdict, decided by the server (verdict.ts, docs/scoring.md). */
export const decisionVerdictSchema = z.enum(DECISION_VERDICTS);

/** How many answers of each verdict (verdict.ts countVerdicts). */
export const verdictCountsSchema = z.object({
  right: z.number().int(),
  partlyRight: z.number().int(),
  wrong: z.number().int(),
  afterRetry: z.number().int(),
  awaitingReview: z.number().int(),
});

export const RUN_STATUSES = ['in_progress', 'completed', 'ended'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** After an answer: go to another step, stay and answer again, or finish the run. */
export const NEXT_ACTIONS = ['next', 'retry', 'finish'] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];

/**
 * A run's result: Pass or Fail for a completed run, "Awaiting review" while a written answer of a completed run
 * waits for an instructor, '-' while the run is not completed (or its percent is unknown).
 */
export const RUN_RESULTS = ['Pass', 'Fail', 'Awaiting review', '-'] as const;
export const runResultSchema = z.enum(RUN_RESULTS);

export const startRunInputSchema = z.object({
  scenarioId: z
    .string({ error: 'Choose a scenario.' })
    .trim()
    .min(1, 'Choose a scenario.')
    .max(100, 'Scenario not found.'),
  /**
   * Start over: end the run of this scenario in progress (it stays in history) and start a new one. Without it a
   * start continues the trainee's unfinished run of the scenario instead of starting a second one.
   */
  startOver: z.boolean().optional(),
});
export type StartRunInput = z.infer<typeof startRunInputSchema>;

export const runIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const techniqueScoreSchema = techniqueRefSchema.extend({
  /** Right first answers on steps of this technique (full credit from the answer itself). */
  count: z.number().int(),
  /** First submissions on scored steps of this technique. */
  attempts: z.number().int(),
  /** The credit earned on them (sum, 0 to attempts). */
  credit: z.number(),
});
export type TechniqueScore = z.infer<typeof techniqueScoreSchema>;

/** Credit per analyst skill over a run's (or a trainee's) first submissions on scored steps. */
export const skillScoreSchema = z.object({
  skill: z.enum(SKILLS),
  label: z.string(),
  /** First submissions on scored steps of this skill. */
  attempts: z.number().int(),
  /** The credit earned on them (sum, 0 to attempts). */
  credit: z.number(),
  /** credit / attempts as a whole percent. */
  percent: z.number().int(),
});
export type SkillScore = z.infer<typeof skillScoreSchema>;

/** The answer given to the current step, shown until the trainee moves on (and again on resume). */
export const runAnswerSchema = z.object({
  /** choice: the shown index picked; -1 for other kinds. */
  optionIndex: z.number().int(),
  /** Full credit. */
  correct: z.boolean(),
  /** choice: the shown index of the correct option; -1 for other kinds. */
  correctOptionIndex: z.number().int(),
  /** A one-line headline ("Correct!", "Partly right: 0.5 credit"); the elements are in `result`. */
  feedback: z.string(),
  nextAction: z.enum(NEXT_ACTIONS),
  credit: z.number(),
  /** THE verdict of this answer, as the debrief and the report will show it. */
  verdict: decisionVerdictSchema,
  /** A hint was opened on this visit before its first answer. */
  hintUsed: z.boolean(),
  /** The revealed key and per-element feedback of this answer. */
  result: stepResultSchema,
});
export type RunAnswer = z.infer<typeof runAnswerSchema>;

/** What every recorded decision says about its credit (the run state's timeline, the dashboard, the report). */
export const decisionCreditFields = {
  kind: z.enum(STEP_KINDS),
  skill: z.enum(SKILLS),
  /** The credit this submission earned, 0 to 1 (0 for a later submission after a Retry, or an unscored step). */
  credit: z.number(),
  firstSubmission: z.boolean(),
  scored: z.boolean(),
  hintUsed: z.boolean(),
  /** write steps: the instructor review's state; null for other kinds (and unscored write steps). */
  reviewStatus: z.enum(['pending', 'graded']).nullable(),
  /** THE verdict of this answer (right, partly right, wrong, after Retry...): every screen draws this one. */
  verdict: decisionVerdictSchema,
};

export const runDecisionSchema = z.object({
  seq: z.number().int(),
  stepId: z.string(),
  /** The step's title in the scenario as it is now; null when the step or the scenario is gone. */
  stepTitle: z.string().nullable(),
  /** choice: the option's index in the file; -1 for other kinds. */
  optionIndex: z.number().int(),
  /** The answer in words ("Likely (moderate confidence)", "B2", the option's text...). */
  decision: z.string(),
  /** Full credit. */
  correct: z.boolean(),
  /** The headline feedback. */
  feedback: z.string(),
  technique: techniqueRefSchema.nullable(),
  timeMs: z.number().int().nullable(),
  at: z.string(),
  ...decisionCreditFields,
  /**
   * The revealed key and per-element feedback; null for decisions recorded before step kinds existed, and in
   * the player's responses while the run is in progress (answering, moving on, a hint: the current answer
   * carries its own result). Reading the run (GET) and every finished run's state carry them all.
   */
  result: stepResultSchema.nullable(),
});
export type RunDecision = z.infer<typeof runDecisionSchema>;

/** A step of the run, by id and title (the title as the scenario says it now; the id when the step is gone). */
export const debriefStepRefSchema = z.object({ stepId: z.string(), stepTitle: z.string() });

/** Every ATT&CK technique met in the run: right answers (0 included) and the steps missed. */
export const debriefTechniqueSchema = techniqueRefSchema.extend({
  /** Right first answers on scored steps of this technique (full credit from the answer itself). */
  right: z.number().int(),
  /** First answers on scored steps of this technique. */
  answered: z.number().int(),
  credit: z.number(),
  /** Missed steps of this technique: first answers partly right or wrong (verdict.ts isMissedVerdict). */
  missed: z.array(debriefStepRefSchema.extend({ seq: z.number().int() })),
});
export type DebriefTechnique = z.infer<typeof debriefTechniqueSchema>;

/** One answer given on "Practise this step": recorded apart from the run, never part of its score. */
export const practiceRecordSchema = z.object({
  id: z.string(),
  stepId: z.string(),
  answeredAt: z.string(),
  /** The credit the answer would have earned on a first answer without a hint. */
  credit: z.number(),
  correct: z.boolean(),
  decision: z.string(),
  feedback: z.string(),
});
export type PracticeRecord = z.infer<typeof practiceRecordSchema>;

/** What a finished run teaches: techniques, the path taken beside the best path, and steps to practise. */
export const debriefSchema = z.object({
  techniques: z.array(debriefTechniqueSchema),
  /** The steps visited, in order (a Retry's second answer is the same visit). */
  pathTaken: z.array(debriefStepRefSchema.extend({ seq: z.number().int().nullable() })),
  /**
   * The best path (the best answer at every step) from the first step. A run that can still be resumed shows it
   * only as far as the steps already answered; `bestPathHiddenSteps` counts the rest.
   */
  bestPath: z.array(debriefStepRefSchema.extend({ taken: z.boolean() })),
  bestPathHiddenSteps: z.number().int(),
  /** Steps missed in this run that "Practise this step" replays (not written answers, which an instructor grades). */
  practisable: z.array(z.string()),
  practice: z.array(practiceRecordSchema),
});
export type Debrief = z.infer<typeof debriefSchema>;

/** Everything the player needs to draw a run, and to resume it exactly where it stopped. */
export const runStateSchema = z.object({
  id: z.string(),
  scenarioId: z.string(),
  scenarioName: z.string(),
  stepCount: z.number().int(),
  status: z.enum(RUN_STATUSES),
  /** The sum of credits earned (may have fractions, such as 3.75). */
  score: z.number(),
  /** The same score, exactly, in thousandths. */
  scoreThousandths: z.number().int(),
  /** The score over the percent base, rounded, at most 100 (see `percentBase`). */
  scorePercent: z.number().int(),
  /**
   * What the percent divides by, in steps: the scored steps played for a completed run; the larger of those and
   * the best path's length for a run in progress or ended (so ending early never inflates it).
   */
  percentBase: z.number().int(),
  /** Scored steps visited and answered so far. */
  playedSteps: z.number().int(),
  /** The scored steps on the scenario's best path (fixed when the run started). */
  bestPathSteps: z.number().int(),
  result: runResultSchema,
  /** Written answers of this run that wait for an instructor's review. */
  pendingReviews: z.number().int(),
  /** True while pendingReviews > 0: the run shows "Awaiting review" instead of Pass or Fail. */
  awaitingReview: z.boolean(),
  /** Right first answers / missed steps (first answers partly right or wrong); after-Retry answers count in neither. */
  correctCount: z.number().int(),
  incorrectCount: z.number().int(),
  /** Every answer of the run by verdict. */
  verdicts: verdictCountsSchema,
  techniqueScores: z.array(techniqueScoreSchema),
  skillScores: z.array(skillScoreSchema),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Whole seconds from the start to the finish, or to now while the run is in progress. */
  durationSeconds: z.number().int(),
  /** True when the scenario was deleted after the run started: the run can be read and ended, not played. */
  scenarioDeleted: z.boolean(),
  /** True when the viewer is not the run's owner (an admin reading someone's run). */
  readOnly: z.boolean(),
  /** The step being played, counted along the trainee's path: answers on earlier visits + 1. */
  stepNumber: z.number().int(),
  /** Steps left on the best path from the current step, this one included; null when unknown or finished. */
  stepsLeftOnBestPath: z.number().int().nullable(),
  /**
   * The owner can continue it: in progress, or ended (Incomplete) and still the latest run of a scenario that
   * exists. Resume continues at the step where it stopped.
   */
  resumable: z.boolean(),
  /** The debrief of a finished run (null while in progress). */
  debrief: debriefSchema.nullable(),
  /** The step to answer (or just answered); null once the run is finished or its scenario is gone. */
  currentStep: playerStepSchema.nullable(),
  answer: runAnswerSchema.nullable(),
  timeline: z.array(runDecisionSchema),
});
export type RunState = z.infer<typeof runStateSchema>;

export const runResponseSchema = z.object({ run: runStateSchema });
export type RunResponse = z.infer<typeof runResponseSchema>;

/** POST /api/runs: the run started (201), or the unfinished run of that scenario continued (200). */
export const startRunResponseSchema = z.object({
  run: runStateSchema,
  /** True when the trainee's unfinished run of the scenario was continued instead of a new one started. */
  resumed: z.boolean(),
});
export type StartRunResponse = z.infer<typeof startRunResponseSchema>;

export const practiceInputSchema = z.object({
  stepId: z.string({ error: 'Say which step to practise.' }).min(1, 'Say which step to practise.').max(64),
});
export type PracticeInput = z.infer<typeof practiceInputSchema>;

export const practiceParamsSchema = z.object({
  id: z.string().min(1).max(100),
  practiceId: z.string().min(1).max(100),
});

/** A practice attempt: the step as a trainee sees it before answering, then the answer's result. */
export const practiceStateSchema = z.object({
  id: z.string(),
  runId: z.string(),
  step: playerStepSchema,
  answer: z
    .object({
      correct: z.boolean(),
      feedback: z.string(),
      credit: z.number(),
      result: stepResultSchema,
    })
    .nullable(),
});
export type PracticeState = z.infer<typeof practiceStateSchema>;
export const practiceResponseSchema = z.object({ practice: practiceStateSchema });
export type PracticeResponse = z.infer<typeof practiceResponseSchema>;

export const answerResultSchema = z.object({
  /** Full credit. */
  correct: z.boolean(),
  /** The headline (see runAnswerSchema.feedback). */
  feedback: z.string(),
  nextAction: z.enum(NEXT_ACTIONS),
  /** The run's score after this answer. */
  score: z.number(),
  /** The credit this answer earned, 0 to 1, after any hint charge. */
  credit: z.number(),
  /** The revealed key and per-element feedback. */
  result: stepResultSchema,
  run: runStateSchema,
});
export type AnswerResult = z.infer<typeof answerResultSchema>;

/** POST /api/runs/:id/hint: the hint of the current step, now recorded as opened. */
export const hintResultSchema = z.object({
  hint: z.string(),
  /** The share of the credit lost (0 when the step was already answered or hints are free). */
  cost: z.number(),
  /** True when opening it reduces this visit's credit (opened before the first submission). */
  charged: z.boolean(),
  run: runStateSchema,
});
export type HintResult = z.infer<typeof hintResultSchema>;
