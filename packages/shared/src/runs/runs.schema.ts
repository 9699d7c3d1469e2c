import { z } from 'zod';
import { MAX_ANSWER_TIME_MS } from './run-messages';

export const RUN_STATUSES = ['in_progress', 'completed', 'ended'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** After an answer: go to another step, stay and answer again, or finish the run. */
export const NEXT_ACTIONS = ['next', 'retry', 'finish'] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];

export const startRunInputSchema = z.object({
  scenarioId: z.string({ error: 'Choose a scenario.' }).trim().min(1, 'Choose a scenario.').max(100, 'Scenario not found.'),
});
export type StartRunInput = z.infer<typeof startRunInputSchema>;

export const runIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const answerInputSchema = z.object({
  stepId: z.string({ error: 'Say which step you are answering.' }).min(1, 'Say which step you are answering.').max(64, 'That step is not the current step of this run.'),
  optionIndex: z
    .int({ error: 'Choose one of the options.' })
    .min(0, 'Choose one of the options.')
    .max(5, 'That option does not exist on this step.'),
  timeMs: z
    .int({ error: 'The answer time must be a whole number of milliseconds.' })
    .min(0, 'The answer time cannot be negative.')
    .max(MAX_ANSWER_TIME_MS, 'The answer time must be at most a day.'),
});
export type AnswerInput = z.infer<typeof answerInputSchema>;

export const techniqueRefSchema = z.object({ id: z.string(), name: z.string() });
export type TechniqueRef = z.infer<typeof techniqueRefSchema>;

export const techniqueScoreSchema = techniqueRefSchema.extend({ count: z.number().int() });
export type TechniqueScore = z.infer<typeof techniqueScoreSchema>;

export const playerIndicatorSchema = z.object({ type: z.string(), value: z.string(), context: z.string().optional() });

export const playerArtifactSchema = z.object({
  kind: z.enum(['report', 'forum-post', 'feed', 'log', 'email', 'chat', 'other']),
  title: z.string().optional(),
  source: z.string().optional(),
  date: z.string().optional(),
  content: z.string(),
  indicators: z.array(playerIndicatorSchema).optional(),
});
export type PlayerArtifact = z.infer<typeof playerArtifactSchema>;

/** A step as a trainee may see it before answering: no correct option, no next steps, no feedback. */
export const playerStepSchema = z.object({
  id: z.string(),
  /** 1-based place of the step in the scenario's file order. */
  position: z.number().int(),
  title: z.string(),
  description: z.string(),
  artifacts: z.array(playerArtifactSchema),
  hint: z.string().nullable(),
  technique: techniqueRefSchema.nullable(),
  options: z.array(z.object({ text: z.string() })),
});
export type PlayerStep = z.infer<typeof playerStepSchema>;

/** The answer given to the current step, shown until the trainee moves on. */
export const runAnswerSchema = z.object({
  optionIndex: z.number().int(),
  correct: z.boolean(),
  correctOptionIndex: z.number().int(),
  feedback: z.string(),
  nextAction: z.enum(NEXT_ACTIONS),
});
export type RunAnswer = z.infer<typeof runAnswerSchema>;

export const runDecisionSchema = z.object({
  seq: z.number().int(),
  stepId: z.string(),
  /** The step's title in the scenario as it is now; null when the step or the scenario is gone. */
  stepTitle: z.string().nullable(),
  optionIndex: z.number().int(),
  decision: z.string(),
  correct: z.boolean(),
  feedback: z.string(),
  technique: techniqueRefSchema.nullable(),
  timeMs: z.number().int().nullable(),
  at: z.string(),
});
export type RunDecision = z.infer<typeof runDecisionSchema>;

/** Everything the player needs to draw a run, and to resume it exactly where it stopped. */
export const runStateSchema = z.object({
  id: z.string(),
  scenarioId: z.string(),
  scenarioName: z.string(),
  stepCount: z.number().int(),
  status: z.enum(RUN_STATUSES),
  score: z.number().int(),
  scorePercent: z.number().int(),
  correctCount: z.number().int(),
  incorrectCount: z.number().int(),
  techniqueScores: z.array(techniqueScoreSchema),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Whole seconds from the start to the finish, or to now while the run is in progress. */
  durationSeconds: z.number().int(),
  /** True when the scenario was deleted after the run started: the run can be read and ended, not played. */
  scenarioDeleted: z.boolean(),
  /** True when the viewer is not the run's owner (an admin reading someone's run). */
  readOnly: z.boolean(),
  /** The step to answer (or just answered); null once the run is finished or its scenario is gone. */
  currentStep: playerStepSchema.nullable(),
  answer: runAnswerSchema.nullable(),
  timeline: z.array(runDecisionSchema),
});
export type RunState = z.infer<typeof runStateSchema>;

export const runResponseSchema = z.object({ run: runStateSchema });
export type RunResponse = z.infer<typeof runResponseSchema>;

export const answerResultSchema = z.object({
  correct: z.boolean(),
  feedback: z.string(),
  nextAction: z.enum(NEXT_ACTIONS),
  score: z.number().int(),
  run: runStateSchema,
});
export type AnswerResult = z.infer<typeof answerResultSchema>;
