import * as z from 'zod';

// The scenario versions API (issue 18), written down here exactly as the contract gives it until the server's
// shared schemas (packages/shared/src/scenarios/versions.api.ts) reach main; then these become re-exports.

export const VERSION_STATES = ['draft', 'published', 'superseded'] as const;
export const versionStateSchema = z.enum(VERSION_STATES);
export type VersionState = z.infer<typeof versionStateSchema>;

const problemSchema = z.object({ path: z.string(), message: z.string() });
export type VersionProblem = z.infer<typeof problemSchema>;

const personSchema = z.object({ id: z.string(), name: z.string() });

export const versionSummarySchema = z.object({
  number: z.number().int(),
  state: versionStateSchema,
  revision: z.number().int(),
  summary: z.string().nullable(),
  createdBy: personSchema.nullable(),
  savedAt: z.string().nullable(),
  savedBy: personSchema.nullable(),
  publishedAt: z.string().nullable(),
  publishedBy: personSchema.nullable(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;

/** GET /api/sim/:id/versions */
export const scenarioVersionsSchema = z.object({
  scenarioId: z.string(),
  name: z.string(),
  archived: z.boolean(),
  currentVersion: z.number().int().nullable(),
  draft: z
    .object({ number: z.number().int(), revision: z.number().int(), basedOn: z.number().int().nullable() })
    .nullable(),
  versions: z.array(versionSummarySchema),
});
export type ScenarioVersions = z.infer<typeof scenarioVersionsSchema>;

/** GET /api/sim/:id/versions/:number and GET /api/sim/:id/draft (and the restore's answer). */
export const scenarioVersionSchema = z.object({
  number: z.number().int(),
  state: versionStateSchema,
  revision: z.number().int(),
  /** The scenario as a file holds it (`ScenarioFile`); a draft's need not pass the checker. */
  definition: z.record(z.string(), z.unknown()),
  problems: z.array(problemSchema),
  warnings: z.array(problemSchema),
});
export type ScenarioVersion = z.infer<typeof scenarioVersionSchema>;

/** PUT /api/sim/:id/draft */
export interface SaveDraftInput {
  /** The revision the editor loaded; null creates the draft (there is none yet). */
  revision: number | null;
  definition: Record<string, unknown>;
}
export interface SaveDraftResponse {
  number: number;
  revision: number;
  problems: VersionProblem[];
  warnings: VersionProblem[];
}

/** POST /api/sim/:id/publish */
export interface PublishDraftInput {
  revision: number;
}
export interface PublishDraftResponse {
  number: number;
}

/** POST /api/sim/:id/versions/:number/restore */
export interface RestoreVersionInput {
  revision: number | null;
}

/** POST /api/sim/drafts */
export interface CreateDraftInput {
  definition: Record<string, unknown>;
}
export interface CreateDraftResponse {
  id: string;
  number: number;
  revision: number;
  problems: VersionProblem[];
}

/** POST /api/sim/:id/duplicate */
export interface DuplicateScenarioInput {
  id?: string;
  name?: string;
}
export interface DuplicateScenarioResponse {
  id: string;
}
