import { z } from 'zod';
import { pageOf, pageQuerySchema } from '../paging/paging';
import { runResultSchema, skillScoreSchema } from '../runs/runs.schema';
import { techniqueRefSchema } from '../runs/step-answers.schema';
import { ASSIGNMENT_STATUSES, ITEM_FLAGS } from './programme-rules';

// Training programmes (docs/programmes.md): cohorts, learning paths, assignments with due dates, certificates,
// remediation and the instructor's analytics. Admins manage; a trainee reads only their own assignments.

const id = z.string().trim().min(1, 'Give an id.').max(100, 'An id is at most 100 characters.');
const name = z
  .string({ error: 'Give a name.' })
  .trim()
  .min(1, 'Give a name.')
  .max(120, 'A name is at most 120 characters.');

export const programmeIdParamsSchema = z.object({ id });
export const verifyCodeParamsSchema = z.object({ code: z.string().trim().min(1).max(100) });

export const programmePersonSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});
export type ProgrammePerson = z.infer<typeof programmePersonSchema>;

// ---- Cohorts ----------------------------------------------------------------------------------------------

const archivedFlag = z
  .enum(['true', 'false'], { error: 'archived is "true" or "false".' })
  .default('false')
  .transform((value) => value === 'true');
/** A searched name ("contains", ignoring case); empty: every name. */
const nameSearch = z.string().trim().max(100, 'A search is at most 100 characters.').default('');

/**
 * GET /api/cohorts and GET /api/paths: a page of the list by name (page, pageSize up to 100), searched by name;
 * `archived=true` adds the archived ones.
 */
export const programmeListQuerySchema = z.object({
  /** true: the archived ones as well. */
  archived: archivedFlag,
  search: nameSearch,
  page: pageQuerySchema.shape.page,
  pageSize: pageQuerySchema.shape.pageSize,
});
export type ProgrammeListQuery = Partial<z.input<typeof programmeListQuerySchema>>;
export const cohortListQuerySchema = programmeListQuerySchema;
export const pathListQuerySchema = programmeListQuerySchema;

/** What a picker shows at most: type to narrow. */
export const CHOICES_LIMIT = 20;
export const choicesQuerySchema = z.object({ search: nameSearch });
export const choiceSchema = z.object({ id: z.string(), name: z.string() });
export type Choice = z.infer<typeof choiceSchema>;
export const choicesSchema = z.object({
  /** The first CHOICES_LIMIT matches by name. */
  items: z.array(choiceSchema),
  /** More match than are listed: narrow the search. */
  more: z.boolean(),
});
export type Choices = z.infer<typeof choicesSchema>;

export const cohortSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  memberCount: z.number().int(),
  assignmentCount: z.number().int(),
  archived: z.boolean(),
  createdAt: z.string(),
});
export type CohortSummary = z.infer<typeof cohortSummarySchema>;
export const cohortListSchema = pageOf(cohortSummarySchema);
export type CohortList = z.infer<typeof cohortListSchema>;

export const createCohortSchema = z.object({ name });
export type CreateCohortInput = z.infer<typeof createCohortSchema>;

export const updateCohortSchema = z
  .object({ name: name.optional(), archived: z.boolean().optional() })
  .refine((value) => value.name !== undefined || value.archived !== undefined, {
    message: 'Give a new name or archived.',
  });
export type UpdateCohortInput = z.infer<typeof updateCohortSchema>;

export const memberIdsSchema = z.object({
  userIds: z
    .array(id, { error: 'Give userIds: a list of user ids.' })
    .min(1, 'Give at least one user id.')
    .max(500, 'At most 500 users at a time.'),
});
export type MemberIdsInput = z.infer<typeof memberIdsSchema>;

export const memberChangeSchema = z.object({ changed: z.number().int(), memberCount: z.number().int() });

export const traineeSearchQuerySchema = z.object({
  search: z.string().trim().max(100).default(''),
});
export const traineeSearchSchema = z.object({
  items: z.array(programmePersonSchema),
  /** More trainees match than are listed: narrow the search. */
  more: z.boolean(),
});
export type TraineeSearch = z.infer<typeof traineeSearchSchema>;

// ---- Learning paths ---------------------------------------------------------------------------------------

export const PATH_UNLOCKS = ['sequential', 'open'] as const;
export const pathUnlockSchema = z.enum(PATH_UNLOCKS, { error: 'unlock is "sequential" or "open".' });

export const pathInputSchema = z.object({
  name,
  description: z.string().trim().max(2000, 'A description is at most 2000 characters.').default(''),
  unlock: pathUnlockSchema.default('sequential'),
  scenarioIds: z
    .array(id, { error: 'Give scenarioIds: the scenarios in order.' })
    .min(1, 'A path has at least one scenario.')
    .max(50, 'A path has at most 50 scenarios.'),
});
export type PathInput = z.input<typeof pathInputSchema>;

export const updatePathSchema = z.object({
  name: name.optional(),
  description: z.string().trim().max(2000, 'A description is at most 2000 characters.').optional(),
  unlock: pathUnlockSchema.optional(),
  scenarioIds: z
    .array(id, { error: 'Give scenarioIds: the scenarios in order.' })
    .min(1, 'A path has at least one scenario.')
    .max(50, 'A path has at most 50 scenarios.')
    .optional(),
  archived: z.boolean().optional(),
  /** The revision the edit started from: when the path has changed since, nothing is written (409). */
  revision: z.number({ error: 'revision is a whole number.' }).int().min(1).optional(),
});
export type UpdatePathInput = z.infer<typeof updatePathSchema>;

export const pathSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  unlock: pathUnlockSchema,
  scenarioCount: z.number().int(),
  archived: z.boolean(),
  /** Counts edits; send it back with a change (PATCH) to be told when someone else changed the path meanwhile. */
  revision: z.number().int(),
});
export type PathSummary = z.infer<typeof pathSummarySchema>;
export const pathListSchema = pageOf(pathSummarySchema);
export type PathList = z.infer<typeof pathListSchema>;

export const pathStepSchema = z.object({
  position: z.number().int(),
  scenarioId: z.string(),
  scenarioName: z.string(),
  difficulty: z.number().int(),
  type: z.string(),
  /** The scenario was deleted: the step can no longer be played. */
  available: z.boolean(),
  state: z.enum(['passed', 'open', 'locked']),
  /** The viewer's best percent on it, or null. */
  bestPercent: z.number().int().nullable(),
});
export type PathStep = z.infer<typeof pathStepSchema>;

export const certificateSchema = z.object({
  id: z.string(),
  code: z.string(),
  holderName: z.string(),
  pathId: z.string(),
  pathName: z.string(),
  issuedAt: z.string(),
  revokedAt: z.string().nullable(),
  /** Relative address of the public verification page. */
  verifyPath: z.string(),
});
export type Certificate = z.infer<typeof certificateSchema>;

export const pathDetailSchema = pathSummarySchema.extend({
  steps: z.array(pathStepSchema),
  passedCount: z.number().int(),
  /** The viewer's certificate for this path, once earned. */
  certificate: certificateSchema.nullable(),
});
export type PathDetail = z.infer<typeof pathDetailSchema>;

// ---- Assignments ------------------------------------------------------------------------------------------

export const createAssignmentSchema = z
  .object({
    scenarioId: id.optional(),
    pathId: id.optional(),
    cohortId: id.optional(),
    userIds: z.array(id).min(1, 'Give at least one trainee.').max(500, 'At most 500 trainees at a time.').optional(),
    dueAt: z.iso
      .datetime({ error: 'dueAt is a date and time (ISO 8601, e.g. 2026-12-01T17:00:00Z).' })
      .nullable()
      .optional(),
    note: z.string().trim().max(1000, 'A note is at most 1000 characters.').default(''),
  })
  .refine((value) => (value.scenarioId === undefined) !== (value.pathId === undefined), {
    message: 'Assign either a scenario (scenarioId) or a learning path (pathId).',
  })
  .refine((value) => (value.cohortId === undefined) !== (value.userIds === undefined), {
    message: 'Assign either to a cohort (cohortId) or to trainees (userIds).',
  });
export type CreateAssignmentInput = z.input<typeof createAssignmentSchema>;

export const assignmentSchema = z.object({
  id: z.string(),
  kind: z.enum(['scenario', 'path']),
  /** The scenario's or the path's id and name. */
  targetId: z.string(),
  targetName: z.string(),
  cohort: z.object({ id: z.string(), name: z.string() }).nullable(),
  trainee: programmePersonSchema.nullable(),
  note: z.string(),
  dueAt: z.string().nullable(),
  assignedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type Assignment = z.infer<typeof assignmentSchema>;
export const createdAssignmentsSchema = z.object({ items: z.array(assignmentSchema) });

export const assignmentStatusSchema = z.enum(ASSIGNMENT_STATUSES);

export const myAssignmentSchema = assignmentSchema.extend({
  status: assignmentStatusSchema,
  /** For a path: scenarios passed since it was given, of how many. */
  progress: z.object({ passed: z.number().int(), total: z.number().int() }),
  /** Best percent since it was given (a scenario), or null. */
  bestPercent: z.number().int().nullable(),
  /** Where "Start" or "Resume" leads: the scenario, or the path's next open scenario. */
  next: z.object({ scenarioId: z.string(), scenarioName: z.string(), resume: z.boolean() }).nullable(),
});
export type MyAssignment = z.infer<typeof myAssignmentSchema>;
export const myAssignmentsSchema = z.object({ items: z.array(myAssignmentSchema), now: z.string() });
export type MyAssignments = z.infer<typeof myAssignmentsSchema>;

// ---- Cohort analytics -------------------------------------------------------------------------------------

export const matrixCellSchema = z.object({
  assignmentId: z.string(),
  status: assignmentStatusSchema,
  bestPercent: z.number().int().nullable(),
  result: runResultSchema.nullable(),
});
export const cohortDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  archived: z.boolean(),
  createdAt: z.string(),
  members: z.array(programmePersonSchema),
  assignments: z.array(assignmentSchema),
  /** One row per member: a cell per assignment (in the order of `assignments`) that applies to them. */
  matrix: z.array(z.object({ trainee: programmePersonSchema, cells: z.array(matrixCellSchema.nullable()) })),
  overdue: z.array(
    z.object({ trainee: programmePersonSchema, assignmentId: z.string(), targetName: z.string(), dueAt: z.string() }),
  ),
  now: z.string(),
});
export type CohortDetail = z.infer<typeof cohortDetailSchema>;

export const coverageSchema = z.object({
  techniques: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      tactics: z.array(z.string()),
      attempts: z.number().int(),
      correct: z.number().int(),
      sharePercent: z.number().int(),
      trainees: z.number().int(),
    }),
  ),
  /** ATT&CK tactics in kill-chain order (the heatmap's columns). */
  tactics: z.array(z.object({ shortname: z.string(), name: z.string() })),
});
export type Coverage = z.infer<typeof coverageSchema>;

// ---- Remediation ------------------------------------------------------------------------------------------

export const remediationSchema = z.object({
  trainee: programmePersonSchema,
  weakTechniques: z.array(techniqueRefSchema.extend({ attempts: z.number().int(), sharePercent: z.number().int() })),
  weakSkills: z.array(skillScoreSchema),
  scenarios: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type: z.string(),
      difficulty: z.number().int(),
      /** Why: the weak techniques and skills it trains. */
      trains: z.array(z.string()),
    }),
  ),
});
export type Remediation = z.infer<typeof remediationSchema>;
export const remediationParamsSchema = z.object({ userId: id });

// ---- Item analysis ----------------------------------------------------------------------------------------

export const itemAnalysisQuerySchema = z.object({
  /** The version's number; by default the newest published (or superseded) version that has runs. */
  version: z.coerce.number({ error: 'version is a version number.' }).int().min(1).optional(),
});

export const itemAnalysisVersionSchema = z.object({
  number: z.number().int(),
  state: z.enum(['published', 'superseded']),
  publishedAt: z.string().nullable(),
  runs: z.number().int(),
});
export type ItemAnalysisVersion = z.infer<typeof itemAnalysisVersionSchema>;

export const itemAnalysisSchema = z.object({
  scenario: z.object({ id: z.string(), name: z.string() }),
  /** The version analysed (its steps and options), null when the scenario has none published. */
  version: itemAnalysisVersionSchema.nullable(),
  /** Every published or superseded version, newest first, with its run count: the version selector. */
  versions: z.array(itemAnalysisVersionSchema),
  /** Runs of the version; the newest of them analysed (at most 500); those finished with a score. */
  runs: z.number().int(),
  analysedRuns: z.number().int(),
  finishedRuns: z.number().int(),
  /** How many finished runs form each of the top and bottom groups (27 % each). */
  groupSize: z.number().int(),
  steps: z.array(
    z.object({
      stepId: z.string(),
      title: z.string(),
      kind: z.string(),
      reached: z.number().int(),
      answered: z.number().int(),
      meanCredit: z.number().nullable(),
      discrimination: z.number().nullable(),
      medianTimeMs: z.number().int().nullable(),
      options: z.array(
        z.object({
          index: z.number().int(),
          text: z.string(),
          correct: z.boolean(),
          chosen: z.number().int(),
          chosenByTop: z.number().int(),
        }),
      ),
      flags: z.array(z.enum(ITEM_FLAGS)),
      attention: z.number().int(),
    }),
  ),
});
export type ItemAnalysis = z.infer<typeof itemAnalysisSchema>;

// ---- Verification -----------------------------------------------------------------------------------------

export const verificationSchema = z.object({
  status: z.enum(['genuine', 'revoked', 'unknown']),
  holderName: z.string().nullable(),
  pathName: z.string().nullable(),
  issuedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type Verification = z.infer<typeof verificationSchema>;

export const certificateListSchema = z.object({ items: z.array(certificateSchema) });
export type CertificateList = z.infer<typeof certificateListSchema>;
