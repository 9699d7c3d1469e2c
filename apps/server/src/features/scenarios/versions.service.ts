import { createHash, randomUUID } from 'node:crypto';
import {
  checkScenario,
  deriveScenarioId,
  draftExistsMessage,
  formatProblem,
  MAX_SCENARIO_FILE_BYTES,
  RESERVED_SCENARIO_IDS,
  SCENARIO_ID_PATTERN,
  staleDraftMessage,
  VERSION_MESSAGES,
  type AuthoringList,
  type DuplicateScenarioInput,
  type DuplicatedScenario,
  type NewDraftScenario,
  type PublishedVersion,
  type SavedDraft,
  type SaveDraftInput,
  type ScenarioDefinition,
  type ScenarioProblem,
  type VersionDetail,
  type VersionHistory,
  type VersionSummary,
} from '@tradecraft/shared';
import { stringify } from 'yaml';
import { nowIso } from '../../clock';
import type { Db, DbOrTrx, Trx } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import type { Scenario, ScenarioVersion, User } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { insertScenario } from './scenarios.repository';
import {
  deleteDraft,
  deleteUnpublishedScenario,
  findDraft,
  findPublished,
  findScenarioRow,
  findVersion,
  insertVersion,
  listAuthoring,
  listVersions,
  nextVersionNumber,
  publishDraft,
  supersedePublished,
  updateDraft,
  updateScenarioRow,
  type VersionWithPeople,
} from './versions.repository';

const EDITOR_SCREEN = 'Scenario Editor';

type Definition = Record<string, unknown>;

// --- What changed ----------------------------------------------------------------------------------

const isObject = (value: unknown): value is Definition =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A definition as compared: checked and normalised when it passes the checker (so `- Text` equals `{ text }`). */
function comparable(value: unknown): Definition {
  const checked = checkScenario(value);
  if (checked.ok) return checked.scenario as unknown as Definition;
  return isObject(value) ? value : {};
}

function stepsOf(definition: Definition): { id: string; json: string }[] {
  const steps = Array.isArray(definition.steps) ? definition.steps : [];
  return steps.map((step, index) => ({
    id: isObject(step) && typeof step.id === 'string' ? step.id : `#${index}`,
    json: JSON.stringify(step),
  }));
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * What a version changes against the one it is based on, in words: "2 steps added, 1 changed, name changed".
 * Steps are matched by id; the scenario's own fields by name.
 */
export function changeSummary(before: unknown, after: unknown): string {
  if (before === null || before === undefined) return 'First version';
  const old = comparable(before);
  const next = comparable(after);
  const oldSteps = stepsOf(old);
  const newSteps = stepsOf(next);
  const oldById = new Map(oldSteps.map((step) => [step.id, step.json]));
  const newIds = new Set(newSteps.map((step) => step.id));
  const added = newSteps.filter((step) => !oldById.has(step.id)).length;
  const removed = oldSteps.filter((step) => !newIds.has(step.id)).length;
  const changed = newSteps.filter((step) => oldById.has(step.id) && oldById.get(step.id) !== step.json).length;
  const stepParts: string[] = [];
  for (const [count, what] of [
    [added, 'added'],
    [changed, 'changed'],
    [removed, 'removed'],
  ] as const) {
    if (count === 0) continue;
    stepParts.push(stepParts.length === 0 ? `${plural(count, 'step')} ${what}` : `${count} ${what}`);
  }
  const parts = [...stepParts];
  const kept = oldSteps.filter((step) => newIds.has(step.id)).map((step) => step.id);
  const keptInNewOrder = newSteps.filter((step) => oldById.has(step.id)).map((step) => step.id);
  if (kept.join('\n') !== keptInNewOrder.join('\n')) parts.push('steps reordered');
  for (const field of ['name', 'type', 'difficulty', 'description', 'sources', 'hint_cost']) {
    if (JSON.stringify(old[field]) !== JSON.stringify(next[field])) parts.push(`${field.replace('_', ' ')} changed`);
  }
  return parts.length === 0 ? 'No changes' : parts.join(', ');
}

// --- Shapes ----------------------------------------------------------------------------------------

const person = (id: string | null, name: string | null) => (id === null ? null : { id, name: name ?? 'A former user' });

function toSummary(version: VersionWithPeople): VersionSummary {
  return {
    number: version.number,
    state: version.state,
    revision: version.revision,
    summary: version.summary,
    createdBy: person(version.created_by, version.created_by_name),
    createdAt: version.created_at,
    savedAt: version.saved_at,
    savedBy: person(version.saved_by, version.saved_by_name),
    publishedAt: version.published_at,
    publishedBy: person(version.published_by, version.published_by_name),
  };
}

function parseDefinition(text: string): Definition {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function checked(definition: Definition): { problems: ScenarioProblem[]; warnings: ScenarioProblem[] } {
  const result = checkScenario(definition);
  return { problems: result.ok ? [] : result.problems, warnings: result.warnings };
}

function toDetail(version: ScenarioVersion): VersionDetail {
  const definition = parseDefinition(version.definition);
  return {
    number: version.number,
    state: version.state,
    revision: version.revision,
    definition,
    ...checked(definition),
  };
}

/** The scenario row's listed copy of a published version. */
function listedFields(definition: ScenarioDefinition, at: string) {
  const json = JSON.stringify(definition);
  return {
    name: definition.name,
    type: definition.type,
    difficulty: definition.difficulty,
    description: definition.description,
    definition: json,
    step_count: definition.steps.length,
    content_hash: createHash('sha256').update(json).digest('hex'),
    updated_at: at,
  };
}

/** What a draft-only scenario's row shows (its draft may be unfinished, so every field has a fallback). */
function draftOnlyFields(id: string, definition: Definition) {
  const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() ? value : fallback);
  return {
    name: text(definition.name, id).slice(0, 120),
    type: text(definition.type, '').slice(0, 40),
    difficulty:
      typeof definition.difficulty === 'number' && Number.isInteger(definition.difficulty) ? definition.difficulty : 1,
    description: text(definition.description, '').slice(0, 400),
  };
}

// --- Guards ----------------------------------------------------------------------------------------

const versionRefused = (statusCode: number, message: string, details?: Record<string, unknown>) =>
  new AppError(statusCode, message, details);

async function editableScenario(db: DbOrTrx, id: string): Promise<Scenario> {
  const scenario = await findScenarioRow(db, id);
  if (!scenario) throw notFound(VERSION_MESSAGES.noScenario);
  if (scenario.deleted_at !== null) throw conflict(VERSION_MESSAGES.archived);
  return scenario;
}

async function readableScenario(db: DbOrTrx, id: string): Promise<Scenario> {
  const scenario = await findScenarioRow(db, id);
  if (!scenario) throw notFound(VERSION_MESSAGES.noScenario);
  return scenario;
}

function sizeChecked(definition: Definition): string {
  const json = JSON.stringify(definition);
  if (Buffer.byteLength(json) > MAX_SCENARIO_FILE_BYTES) throw versionRefused(413, VERSION_MESSAGES.tooLarge);
  return json;
}

/** The 409 for a draft whose revision moved on (or which is gone) since the caller read it. */
function staleDraft(draft: VersionWithPeople | undefined): AppError {
  if (!draft) return versionRefused(409, VERSION_MESSAGES.draftGone, { currentRevision: null });
  return versionRefused(409, staleDraftMessage(draft.saved_by_name ?? 'someone', draft.saved_at), {
    currentRevision: draft.revision,
    savedBy: person(draft.saved_by, draft.saved_by_name),
    savedAt: draft.saved_at,
  });
}

function draftExists(draft: VersionWithPeople): AppError {
  return versionRefused(409, draftExistsMessage(draft.created_by_name ?? 'Someone', draft.created_at), {
    currentRevision: draft.revision,
    savedBy: person(draft.saved_by, draft.saved_by_name),
    savedAt: draft.saved_at,
  });
}

/** A definition to keep for scenario `id`: its `id` must be that one (added when left out). */
function forScenario(id: string, definition: Definition): Definition {
  if (definition.id !== undefined && definition.id !== id) throw badRequest(VERSION_MESSAGES.idMismatch);
  return definition.id === undefined ? { id, ...definition } : definition;
}

const auditName = (scenario: Pick<Scenario, 'id' | 'name'>) => `"${scenario.name}" (${scenario.id})`;

// --- Reading ---------------------------------------------------------------------------------------

export async function listForAuthoring(db: Db): Promise<AuthoringList> {
  const rows = await listAuthoring(db);
  return {
    scenarios: rows.map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type,
      difficulty: row.difficulty,
      origin: row.origin,
      updatedAt: row.updated_at,
      currentVersion: row.current_number,
      draft:
        row.draft_number === null
          ? null
          : { number: row.draft_number, revision: row.draft_revision ?? 1, savedAt: row.draft_saved_at ?? '' },
    })),
  };
}

export async function versionHistory(db: Db, id: string): Promise<VersionHistory> {
  const scenario = await readableScenario(db, id);
  const versions = await listVersions(db, id);
  const draft = versions.find((version) => version.state === 'draft');
  const current = versions.find((version) => version.state === 'published');
  return {
    scenarioId: scenario.id,
    name: scenario.name,
    archived: scenario.deleted_at !== null,
    currentVersion: current?.number ?? null,
    draft: draft ? { number: draft.number, revision: draft.revision, basedOn: draft.based_on } : null,
    versions: versions.map(toSummary),
  };
}

export async function readVersion(db: Db, id: string, number: number): Promise<VersionDetail> {
  await readableScenario(db, id);
  const version = await findVersion(db, id, number);
  if (!version) throw notFound(VERSION_MESSAGES.noVersion);
  return toDetail(version);
}

export async function readDraft(db: Db, id: string): Promise<VersionDetail> {
  await readableScenario(db, id);
  const draft = await findDraft(db, id);
  if (!draft) throw notFound(VERSION_MESSAGES.noDraft);
  return toDetail(draft);
}

/** A version as a YAML file, named `<id>-v<number>.yaml`. */
export async function exportVersion(db: Db, id: string, number: number): Promise<{ filename: string; text: string }> {
  await readableScenario(db, id);
  const version = await findVersion(db, id, number);
  if (!version) throw notFound(VERSION_MESSAGES.noVersion);
  return { filename: `${id}-v${number}.yaml`, text: stringify(parseDefinition(version.definition)) };
}

// --- Drafts ----------------------------------------------------------------------------------------

interface DraftWrite {
  scenario: Scenario;
  definition: Definition;
  json: string;
  admin: User;
  at: string;
}

/** Creates the scenario's draft (none exists): the next number, based on the current version. */
async function createDraft(trx: DbOrTrx, write: DraftWrite, summaryBase?: string): Promise<ScenarioVersion> {
  const { scenario, json, admin, at } = write;
  const published = await findPublished(trx, scenario.id);
  const draft: ScenarioVersion = {
    id: randomUUID(),
    scenario_id: scenario.id,
    number: await nextVersionNumber(trx, scenario.id),
    state: 'draft',
    revision: 1,
    definition: json,
    based_on: published?.number ?? null,
    summary: summaryBase ?? changeSummary(published ? parseDefinition(published.definition) : null, write.definition),
    source_hash: null,
    created_by: admin.id,
    created_at: at,
    saved_by: admin.id,
    saved_at: at,
    published_by: null,
    published_at: null,
  };
  await insertVersion(trx, draft);
  await updateScenarioRow(trx, scenario.id, {
    draft_version_id: draft.id,
    ...(scenario.current_version_id === null ? draftOnlyFields(scenario.id, write.definition) : {}),
  });
  return draft;
}

/** Rewrites the draft at `revision`; false when another save got there first. */
async function rewriteDraft(trx: DbOrTrx, write: DraftWrite, draft: { id: string; revision: number }) {
  const { scenario, json, admin, at } = write;
  const published = await findPublished(trx, scenario.id);
  const saved = await updateDraft(trx, draft, {
    definition: json,
    summary: changeSummary(published ? parseDefinition(published.definition) : null, write.definition),
    based_on: published?.number ?? null,
    saved_by: admin.id,
    saved_at: at,
  });
  if (saved && scenario.current_version_id === null)
    await updateScenarioRow(trx, scenario.id, draftOnlyFields(scenario.id, write.definition));
  return saved;
}

/** Runs a draft change; a unique violation (another admin's draft created at the same moment) is a 409. */
async function draftTransaction<T>(db: Db, scenarioId: string, work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const draft = await findDraft(db, scenarioId);
    throw draft ? draftExists(draft) : staleDraft(undefined);
  }
}

/**
 * PUT /api/sim/:id/draft: saves the draft even when the checker finds problems (a draft may be unfinished).
 * `revision: null` starts one (409 when someone else did); otherwise the revision must be the draft's current one.
 */
export async function saveDraft(db: Db, admin: User, id: string, input: SaveDraftInput): Promise<SavedDraft> {
  const scenario = await editableScenario(db, id);
  const definition = forScenario(id, input.definition);
  const json = sizeChecked(definition);
  const write: DraftWrite = { scenario, definition, json, admin, at: nowIso() };
  const current = await findDraft(db, id);
  if (input.revision === null && current) throw draftExists(current);
  if (input.revision !== null && current?.revision !== input.revision) throw staleDraft(current);

  const saved = await draftTransaction(db, id, async (trx) => {
    let result: { number: number; revision: number };
    if (!current) {
      const draft = await createDraft(trx, write);
      result = { number: draft.number, revision: draft.revision };
    } else {
      if (!(await rewriteDraft(trx, write, current))) throw staleDraft(await findDraft(trx, id));
      result = { number: current.number, revision: current.revision + 1 };
    }
    await recordAudit(trx, {
      actor: admin.email,
      action: 'save scenario draft',
      details: `Saved the draft of ${auditName(scenario)}: version ${result.number}, revision ${result.revision}`,
      screen: EDITOR_SCREEN,
    });
    return result;
  });
  return { ...saved, ...checked(definition) };
}

/** DELETE /api/sim/:id/draft: a never-published scenario goes with its draft (no run can point at it). */
export async function discardDraft(db: Db, admin: User, id: string, revision: number): Promise<void> {
  const scenario = await editableScenario(db, id);
  const draft = await findDraft(db, id);
  if (!draft) throw notFound(VERSION_MESSAGES.noDraft);
  if (draft.revision !== revision) throw staleDraft(draft);
  await db.transaction().execute(async (trx) => {
    if (!(await deleteDraft(trx, { id: draft.id, revision }))) throw staleDraft(await findDraft(trx, id));
    if (scenario.current_version_id === null) await deleteUnpublishedScenario(trx, id);
    else await updateScenarioRow(trx, id, { draft_version_id: null });
    await recordAudit(trx, {
      actor: admin.email,
      action: 'discard scenario draft',
      details:
        `Discarded the draft (version ${draft.number}, revision ${draft.revision}) of ${auditName(scenario)}` +
        (scenario.current_version_id === null ? '; the scenario was never published and is removed' : ''),
      screen: EDITOR_SCREEN,
    });
  });
}

/**
 * POST /api/sim/:id/publish: the draft, checked whole, becomes the current version; the previous one is
 * superseded (runs on it keep playing it). Refused with every problem when the checker fails: nothing changes.
 */
export async function publishVersion(db: Db, admin: User, id: string, revision: number): Promise<PublishedVersion> {
  const scenario = await editableScenario(db, id);
  const draft = await findDraft(db, id);
  if (!draft) throw notFound(VERSION_MESSAGES.noDraft);
  if (draft.revision !== revision) throw staleDraft(draft);
  const result = checkScenario(parseDefinition(draft.definition));
  if (!result.ok) {
    throw versionRefused(400, VERSION_MESSAGES.publishRefused, {
      problems: result.problems.map(formatProblem),
      issues: result.problems,
    });
  }
  const definition: ScenarioDefinition = { ...result.scenario, id };
  const at = nowIso();
  const firstPublish = scenario.current_version_id === null;
  await db.transaction().execute(async (trx) => {
    const previous = await findPublished(trx, id);
    await supersedePublished(trx, id);
    const published = await publishDraft(
      trx,
      { id: draft.id, revision },
      { definition: JSON.stringify(definition), published_by: admin.id, published_at: at },
    );
    if (!published) throw staleDraft(await findDraft(trx, id));
    await updateScenarioRow(trx, id, {
      ...listedFields(definition, at),
      current_version_id: draft.id,
      draft_version_id: null,
      // A first publish puts the scenario in the library now (the picker's "Newest").
      ...(firstPublish ? { created_at: at } : {}),
    });
    await recordAudit(trx, {
      actor: admin.email,
      action: 'publish scenario version',
      details:
        `Published version ${draft.number} of "${definition.name}" (${id})` +
        (previous ? `, superseding version ${previous.number}` : '') +
        `: ${draft.summary}`,
      screen: EDITOR_SCREEN,
    });
  });
  return { number: draft.number };
}

/** POST /api/sim/:id/versions/:number/restore: copies a version into the draft (creating or replacing it). */
export async function restoreVersion(
  db: Db,
  admin: User,
  id: string,
  number: number,
  revision: number | null,
): Promise<VersionDetail> {
  const scenario = await editableScenario(db, id);
  const version = await findVersion(db, id, number);
  if (!version) throw notFound(VERSION_MESSAGES.noVersion);
  if (version.state === 'draft') throw badRequest(VERSION_MESSAGES.restoreDraft);
  const current = await findDraft(db, id);
  if (revision === null && current) throw draftExists(current);
  if (revision !== null && current?.revision !== revision) throw staleDraft(current);
  const definition = parseDefinition(version.definition);
  const write: DraftWrite = { scenario, definition, json: version.definition, admin, at: nowIso() };

  await draftTransaction(db, id, async (trx) => {
    if (!current) await createDraft(trx, write);
    else if (!(await rewriteDraft(trx, write, current))) throw staleDraft(await findDraft(trx, id));
    await recordAudit(trx, {
      actor: admin.email,
      action: 'restore scenario version',
      details: `Restored version ${number} of ${auditName(scenario)} into its draft`,
      screen: EDITOR_SCREEN,
    });
  });
  const draft = await findDraft(db, id);
  if (!draft) throw staleDraft(undefined);
  return toDetail(draft);
}

/** A new scenario whose only version is a draft (POST /api/sim/drafts and duplicate). */
async function createDraftScenario(
  db: Db,
  admin: User,
  id: string,
  definition: Definition,
  audit: { action: string; details: string; summary: string },
): Promise<ScenarioVersion> {
  if (!SCENARIO_ID_PATTERN.test(id)) throw badRequest(VERSION_MESSAGES.badId);
  if (RESERVED_SCENARIO_IDS.includes(id)) throw badRequest(VERSION_MESSAGES.reservedId);
  const json = sizeChecked(definition);
  if (await findScenarioRow(db, id)) throw conflict(VERSION_MESSAGES.idTaken);
  const at = nowIso();
  try {
    return await db.transaction().execute(async (trx) => {
      const row: Scenario = {
        id,
        ...draftOnlyFields(id, definition),
        definition: '{}',
        step_count: 0,
        origin: 'upload',
        content_hash: '',
        source_file_id: null,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        current_version_id: null,
        draft_version_id: null,
      };
      if (!(await insertScenario(trx, row))) throw conflict(VERSION_MESSAGES.idTaken);
      const draft = await createDraft(trx, { scenario: row, definition, json, admin, at }, audit.summary);
      await recordAudit(trx, {
        actor: admin.email,
        action: audit.action,
        details: audit.details,
        screen: EDITOR_SCREEN,
      });
      return draft;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(VERSION_MESSAGES.idTaken);
    throw error;
  }
}

/** POST /api/sim/drafts: the id is the definition's, or derived from its name. */
export async function newDraftScenario(
  db: Db,
  admin: User,
  input: { definition: Definition },
): Promise<NewDraftScenario> {
  const given = input.definition;
  const id =
    typeof given.id === 'string'
      ? given.id
      : typeof given.name === 'string' && given.name.trim()
        ? deriveScenarioId(given.name)
        : undefined;
  if (id === undefined) throw badRequest(VERSION_MESSAGES.noIdOrName);
  const definition = given.id === undefined ? { id, ...given } : given;
  const draft = await createDraftScenario(db, admin, id, definition, {
    action: 'create scenario draft',
    details: `Started the new scenario "${typeof given.name === 'string' ? given.name : id}" (${id}) as a draft`,
    summary: 'New scenario',
  });
  return { id, number: draft.number, revision: draft.revision, problems: checked(definition).problems };
}

/** POST /api/sim/:id/duplicate: a new draft-only scenario copied from the current version (or the draft). */
export async function duplicateScenario(
  db: Db,
  admin: User,
  id: string,
  input: DuplicateScenarioInput,
): Promise<DuplicatedScenario> {
  const scenario = await editableScenario(db, id);
  const source = (await findPublished(db, id)) ?? (await findDraft(db, id));
  if (!source) throw notFound(VERSION_MESSAGES.noVersion);
  const original = parseDefinition(source.definition);
  const baseName = typeof original.name === 'string' && original.name.trim() ? original.name : scenario.name;
  const name = input.name ?? `${baseName} (copy)`.slice(0, 120);
  const newId = input.id ?? deriveScenarioId(name);
  const { id: _old, name: _name, ...rest } = original;
  await createDraftScenario(
    db,
    admin,
    newId,
    { id: newId, name, ...rest },
    {
      action: 'duplicate scenario',
      details: `Duplicated version ${source.number} of ${auditName(scenario)} as "${name}" (${newId}), a draft`,
      summary: `Copy of ${id} version ${source.number}`,
    },
  );
  return { id: newId };
}

// --- Published versions made by the library and uploads ----------------------------------------------

/**
 * Publishes a checked definition as the scenario's next version (the scenario row exists): the previous one is
 * superseded, the row's listed copy follows. Used by uploads of new scenarios and the built-in loader.
 */
export async function publishDefinition(
  trx: DbOrTrx,
  options: {
    scenarioId: string;
    definition: ScenarioDefinition;
    /** The SHA-256 of the built-in file it comes from (the loader's "changed?" test); null otherwise. */
    sourceHash: string | null;
    /** The scenario row's content hash: the file's bytes when there is a file; else the definition's. */
    contentHash?: string;
    by: string | null;
    at: string;
  },
): Promise<number> {
  const { scenarioId, definition, at } = options;
  const previous = await findPublished(trx, scenarioId);
  const number = await nextVersionNumber(trx, scenarioId);
  await supersedePublished(trx, scenarioId);
  const id = randomUUID();
  await insertVersion(trx, {
    id,
    scenario_id: scenarioId,
    number,
    state: 'published',
    revision: 1,
    definition: JSON.stringify(definition),
    based_on: previous?.number ?? null,
    summary: changeSummary(previous ? parseDefinition(previous.definition) : null, definition),
    source_hash: options.sourceHash,
    created_by: options.by,
    created_at: at,
    saved_by: options.by,
    saved_at: at,
    published_by: options.by,
    published_at: at,
  });
  await updateScenarioRow(trx, scenarioId, {
    ...listedFields(definition, at),
    ...(options.contentHash ? { content_hash: options.contentHash } : {}),
    current_version_id: id,
  });
  return number;
}

/**
 * An upload of an id that exists: the checked file becomes the scenario's draft (created, or replacing the one
 * there: an upload is a deliberate replacement); an admin then publishes it.
 */
export async function uploadAsDraft(
  trx: DbOrTrx,
  options: { scenario: Scenario; definition: ScenarioDefinition; admin: User; at: string },
): Promise<number> {
  const definition = options.definition as unknown as Definition;
  const write: DraftWrite = {
    scenario: options.scenario,
    definition,
    json: JSON.stringify(definition),
    admin: options.admin,
    at: options.at,
  };
  const current = await findDraft(trx, options.scenario.id);
  if (!current) return (await createDraft(trx, write)).number;
  if (!(await rewriteDraft(trx, write, current))) throw staleDraft(await findDraft(trx, options.scenario.id));
  return current.number;
}
