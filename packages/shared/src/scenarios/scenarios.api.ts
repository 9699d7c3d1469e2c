import { z } from 'zod';
import { ARTIFACT_KINDS, TLP_LABELS } from './scenario.schema';
import { STEP_KINDS } from './step-kinds';
import { runResultSchema } from '../runs/runs.schema';
import { MAX_DIFFICULTY, MIN_DIFFICULTY } from './difficulty';

// The API of the scenario library (/api/sim) and of the platform difficulty (/api/settings/difficulty).


/** A scenario file is at most 1 MB (docs/operations.md lists every upload limit). */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;
/** The file types the upload screen offers (the server reads the bytes, not the name). */
export const SCENARIO_FILE_ACCEPT = '.yaml,.yml,.json';

/** The product's wording, kept word for word on every screen that shows it. */
export const UPLOAD_MESSAGES = {
  noFile: 'Please select a file.',
  failed: 'Upload failed. Please try again.',
} as const;

export const scenarioIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const scenarioSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  difficulty: z.number().int(),
  description: z.string(),
  stepCount: z.number().int(),
});
export type ScenarioSummary = z.infer<typeof scenarioSummarySchema>;

/** The built-in tutorial: recommended first to a trainee who has no runs yet. */
export const TUTORIAL_SCENARIO_ID = 'tutorial-first-case';

/** Where the signed-in user stands with a scenario (the picker's card). */
export const scenarioProgressSchema = z.object({
  /** The unfinished run Start Simulation continues (in progress, or ended with no later run): its id and the step they are at (steps answered + 1), or null. */
  inProgress: z.object({ runId: z.string(), step: z.number().int() }).nullable(),
  /** Their best completed run: its percent and result (THE run figures), or null when none is completed. */
  best: z.object({ runId: z.string(), scorePercent: z.number().int().nullable(), result: runResultSchema }).nullable(),
  /** How many of their runs of it are completed. */
  completedRuns: z.number().int(),
});
export type ScenarioProgress = z.infer<typeof scenarioProgressSchema>;

export const scenarioListItemSchema = scenarioSummarySchema.extend({
  /** The scenario's difficulty equals the platform difficulty set by an admin. */
  recommended: z.boolean(),
  /** The tutorial, for a user with no runs at all: shown first and marked "Start here". */
  startHere: z.boolean(),
  /** The ATT&CK technique ids its steps practise (the picker searches them). */
  techniques: z.array(z.string()),
  /** When it was published (the picker's "Newest" sort). */
  publishedAt: z.string(),
  progress: scenarioProgressSchema,
});
export type ScenarioListItem = z.infer<typeof scenarioListItemSchema>;

export const scenarioListSchema = z.object({ scenarios: z.array(scenarioListItemSchema) });
export type ScenarioList = z.infer<typeof scenarioListSchema>;

/** GET /api/sim/list/count: how many scenarios the list holds (the trainee's bell compares it with what they saw). */
export const scenarioCountSchema = z.object({ count: z.number().int().nonnegative() });
export type ScenarioCount = z.infer<typeof scenarioCountSchema>;

// --- One scenario: whole for admins, without the answers for trainees --------------------------------
// Response schemas strip every field they do not name, so a trainee's view cannot carry an answer even
// if one slipped into the object the server built.

const sourceSchema = z.object({ title: z.string(), url: z.string() });

const indicatorSchema = z.object({ type: z.string(), value: z.string(), context: z.string().optional() });

const artifactSchema = z.object({
  kind: z.enum(ARTIFACT_KINDS),
  title: z.string().optional(),
  source: z.string().optional(),
  date: z.string().optional(),
  content: z.string(),
  indicators: z.array(indicatorSchema).optional(),
  tlp: z.enum(TLP_LABELS).optional(),
  admiralty: z.string().optional(),
});

const stepFields = {
  id: z.string(),
  title: z.string(),
  description: z.string(),
  artifacts: z.array(artifactSchema).optional(),
  hint: z.string().optional(),
  mitre_attack: z.string().optional(),
};

const scenarioFields = {
  id: z.string(),
  name: z.string(),
  type: z.string(),
  difficulty: z.number().int(),
  description: z.string(),
  sources: z.array(sourceSchema).optional(),
  stepCount: z.number().int(),
};

export const adminScenarioOptionSchema = z.object({
  text: z.string(),
  next_step: z.string().nullable().optional(),
  feedback: z.string().optional(),
  /** choice: a second best's credit. */
  credit: z.number().optional(),
  /** multi: the option applies. */
  correct: z.boolean().optional(),
});

/**
 * A step as an admin sees it: every field of its kind as in the file (kind, key, flow, rubric...). `options` is
 * empty and `correct_option` -1 for kinds without them.
 */
export const adminScenarioStepSchema = z.looseObject({
  ...stepFields,
  kind: z.enum(STEP_KINDS),
  options: z.array(adminScenarioOptionSchema),
  correct_option: z.number().int(),
});

export const adminScenarioSchema = z.object({
  view: z.literal('admin'),
  ...scenarioFields,
  origin: z.enum(['builtin', 'upload']),
  steps: z.array(adminScenarioStepSchema),
});
export type AdminScenario = z.infer<typeof adminScenarioSchema>;
export type AdminScenarioStep = z.infer<typeof adminScenarioStepSchema>;

/**
 * What a trainee may know of a scenario before playing it: its card. Steps reach them one at a time through
 * the run; the list of steps would tell which ones only a wrong answer leads to.
 */
export const traineeScenarioSchema = z.object({
  view: z.literal('trainee'),
  ...scenarioFields,
});
export type TraineeScenario = z.infer<typeof traineeScenarioSchema>;

export const scenarioDetailSchema = z.discriminatedUnion('view', [adminScenarioSchema, traineeScenarioSchema]);
export type ScenarioDetail = z.infer<typeof scenarioDetailSchema>;

// --- Upload ----------------------------------------------------------------------------------------

export const uploadScenarioResponseSchema = z.object({
  /** The name the file had on the admin's computer, for display only. */
  filename: z.string(),
  /** Bytes. */
  size: z.number().int(),
  /** ISO-8601 UTC. */
  upload_time: z.string(),
  scenario: scenarioSummarySchema,
  /**
   * True when the id already existed: the file became that scenario's draft (created, or replacing the draft),
   * for an admin to publish; false when a new scenario was published.
   */
  draft: z.boolean(),
  /** The version the file became (1 for a new scenario). */
  number: z.number().int(),
  /** Content advice that did not refuse the file (such as the longest-option rule), as `place: message`. */
  warnings: z.array(z.string()),
});
export type UploadScenarioResponse = z.infer<typeof uploadScenarioResponseSchema>;

/** A refused upload: `problems` lists every problem as `place: message`; `issues` holds the same, split. */
export const uploadFailureSchema = z.object({
  error: z.string(),
  problems: z.array(z.string()),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type UploadFailure = z.infer<typeof uploadFailureSchema>;

// --- Platform difficulty ---------------------------------------------------------------------------

export const DIFFICULTY_MESSAGE = `Difficulty must be a whole number from ${MIN_DIFFICULTY} to ${MAX_DIFFICULTY}.`;

export const difficultySchema = z.object({
  difficulty: z
    .number({ error: DIFFICULTY_MESSAGE })
    .int({ error: DIFFICULTY_MESSAGE })
    .min(MIN_DIFFICULTY, { error: DIFFICULTY_MESSAGE })
    .max(MAX_DIFFICULTY, { error: DIFFICULTY_MESSAGE }),
});
export type DifficultySetting = z.infer<typeof difficultySchema>;
