import { z } from 'zod';

// The API of scenario versions (/api/sim/:id/versions, drafts, publish; admins only). A scenario has versions
// numbered 1, 2, 3...: at most one draft, one published (the current version, what new runs play) and the
// superseded ones before it. A run keeps playing the version it started on.

export const VERSION_STATES = ['draft', 'published', 'superseded'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

/** The product's wording, kept word for word on every screen that shows it. */
export const VERSION_MESSAGES = {
  noDraft: 'This scenario has no draft.',
  draftGone:
    'This draft was published or discarded since you opened it. Download your version, reload, and apply your changes again.',
  restoreDraft: 'This version is the draft itself; restore a published or superseded version.',
  noScenario: 'No such scenario.',
  noVersion: 'No such version.',
  archived: 'This scenario is archived; it can no longer be edited.',
  idMismatch: "The definition's id must be the id of this scenario.",
  idTaken: 'A scenario with this id already exists (or existed and was archived); choose another id.',
  noIdOrName: 'Give the scenario an id or a name.',
  badId: 'The id must be 3 to 64 characters, using only a-z, 0-9 and -.',
  reservedId: 'This id is reserved by the application; choose another id.',
  tooLarge: 'The definition is larger than 1 MB.',
  notObject: 'The definition must be a scenario object (id, name, type, ..., steps).',
  publishRefused: 'This version cannot be published until its problems are fixed.',
} as const;

/**
 * The 409 a save, publish, restore or discard gets when the draft changed since the caller read it: the product's
 * words, with who saved it and when (UTC).
 */
export function staleDraftMessage(savedBy: string, savedAt: string): string {
  return (
    `This draft was saved by ${savedBy} at ${savedAt.slice(0, 16).replace('T', ' ')} UTC since you opened it. ` +
    'Download your version, reload, and apply your changes again.'
  );
}

/** The 409 a new draft gets when someone started one meanwhile. */
export function draftExistsMessage(createdBy: string, createdAt: string): string {
  return (
    `${createdBy} started a draft of this scenario at ${createdAt.slice(0, 16).replace('T', ' ')} UTC. ` +
    'Reload to open it, or download your version and apply your changes to theirs.'
  );
}

/**
 * Ids a new scenario may not take: the static segments of /api/sim, so `/api/sim/<id>/...` always means the
 * scenario (the router resolves a static segment first).
 */
export const RESERVED_SCENARIO_IDS: readonly string[] = [
  'list',
  'delete-scenario',
  'upload-scenario',
  'check-scenario',
  'import-stix',
  'import',
  'drafts',
  'authoring',
];

export const versionParamsSchema = z.object({
  id: z.string().min(1).max(100),
  number: z.coerce.number().int().min(1),
});

const personSchema = z.object({ id: z.string(), name: z.string() });

/** One problem the checker found, at a place an author can find (`steps[2].options[1].next_step`). */
export const scenarioProblemSchema = z.object({ path: z.string(), message: z.string() });

export const versionSummarySchema = z.object({
  number: z.number().int(),
  state: z.enum(VERSION_STATES),
  /** A draft's save counter; a published version keeps the revision it was published at. */
  revision: z.number().int(),
  /** What changed against the version it was based on, e.g. "2 steps added, 1 changed, name changed". */
  summary: z.string(),
  createdBy: personSchema.nullable(),
  createdAt: z.string(),
  savedAt: z.string(),
  savedBy: personSchema.nullable(),
  publishedAt: z.string().nullable(),
  publishedBy: personSchema.nullable(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;

export const draftRefSchema = z.object({
  number: z.number().int(),
  revision: z.number().int(),
  /** The published version the draft started from (null for a scenario never published). */
  basedOn: z.number().int().nullable(),
});

/** GET /api/sim/:id/versions */
export const versionHistorySchema = z.object({
  scenarioId: z.string(),
  name: z.string(),
  archived: z.boolean(),
  currentVersion: z.number().int().nullable(),
  draft: draftRefSchema.nullable(),
  /** Newest first. */
  versions: z.array(versionSummarySchema),
});
export type VersionHistory = z.infer<typeof versionHistorySchema>;

/** GET /api/sim/:id/versions/:number and GET /api/sim/:id/draft */
export const versionDetailSchema = z.object({
  number: z.number().int(),
  state: z.enum(VERSION_STATES),
  revision: z.number().int(),
  /** The scenario as the JSON object a file would hold (a draft's may be unfinished). */
  definition: z.record(z.string(), z.unknown()),
  /** Every problem the shared checker finds (empty: it can be published). */
  problems: z.array(scenarioProblemSchema),
  /** Advice that never refuses a publish (the longest-option rule). */
  warnings: z.array(scenarioProblemSchema),
});
export type VersionDetail = z.infer<typeof versionDetailSchema>;

/** PUT /api/sim/:id/draft: `revision` null starts a draft; otherwise it must be the draft's current revision. */
export const saveDraftInputSchema = z.object({
  revision: z.number().int().min(1).nullable(),
  definition: z.record(z.string(), z.unknown()),
});
export type SaveDraftInput = z.infer<typeof saveDraftInputSchema>;

export const savedDraftSchema = z.object({
  number: z.number().int(),
  revision: z.number().int(),
  problems: z.array(scenarioProblemSchema),
  warnings: z.array(scenarioProblemSchema),
});
export type SavedDraft = z.infer<typeof savedDraftSchema>;

/** DELETE /api/sim/:id/draft and POST /api/sim/:id/publish */
export const draftRevisionInputSchema = z.object({ revision: z.number().int().min(1) });
export type DraftRevisionInput = z.infer<typeof draftRevisionInputSchema>;

export const publishedVersionSchema = z.object({ number: z.number().int() });
export type PublishedVersion = z.infer<typeof publishedVersionSchema>;

/** POST /api/sim/:id/versions/:number/restore: `revision` of the draft it replaces, null when there is none. */
export const restoreVersionInputSchema = z.object({ revision: z.number().int().min(1).nullable() });
export type RestoreVersionInput = z.infer<typeof restoreVersionInputSchema>;

/** POST /api/sim/drafts */
export const newDraftScenarioInputSchema = z.object({ definition: z.record(z.string(), z.unknown()) });
export type NewDraftScenarioInput = z.infer<typeof newDraftScenarioInputSchema>;

export const newDraftScenarioSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  revision: z.number().int(),
  problems: z.array(scenarioProblemSchema),
});
export type NewDraftScenario = z.infer<typeof newDraftScenarioSchema>;

/** POST /api/sim/:id/duplicate */
export const duplicateScenarioInputSchema = z.object({
  id: z.string().min(1).max(100).optional(),
  name: z.string().trim().min(1).max(120).optional(),
});
export type DuplicateScenarioInput = z.infer<typeof duplicateScenarioInputSchema>;

export const duplicatedScenarioSchema = z.object({ id: z.string() });
export type DuplicatedScenario = z.infer<typeof duplicatedScenarioSchema>;

/** GET /api/sim/authoring: every scenario an admin may edit (not archived), draft-only ones included. */
export const authoringListSchema = z.object({
  scenarios: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type: z.string(),
      difficulty: z.number().int(),
      origin: z.enum(['builtin', 'upload']),
      updatedAt: z.string(),
      currentVersion: z.number().int().nullable(),
      draft: z.object({ number: z.number().int(), revision: z.number().int(), savedAt: z.string() }).nullable(),
    }),
  ),
});
export type AuthoringList = z.infer<typeof authoringListSchema>;
