import type { Insertable, Updateable } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import type { Scenario, ScenariosTable, ScenarioVersion, ScenarioVersionsTable } from '../../db/schema';

// Every query of scenario versions (see migration 2026_11_25_0100): a scenario's versions, its one draft, and the
// copy of the current published version that the scenarios row keeps for lists.

/** A scenario row whatever its state (archived ones too). */
export function findScenarioRow(db: DbOrTrx, id: string): Promise<Scenario | undefined> {
  return db.selectFrom('scenarios').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A version with the names of who created, saved and published it. */
export type VersionWithPeople = ScenarioVersion & {
  created_by_name: string | null;
  saved_by_name: string | null;
  published_by_name: string | null;
};

type Named = { first_name: string | null; last_name: string | null };
const nameOf = (first: string | null, last: string | null) =>
  first === null && last === null ? null : `${first ?? ''} ${last ?? ''}`.trim();

function versionsWithPeople(db: DbOrTrx) {
  return db
    .selectFrom('scenario_versions')
    .leftJoin('users as creator', 'creator.id', 'scenario_versions.created_by')
    .leftJoin('users as saver', 'saver.id', 'scenario_versions.saved_by')
    .leftJoin('users as publisher', 'publisher.id', 'scenario_versions.published_by')
    .selectAll('scenario_versions')
    .select([
      'creator.first_name as creator_first',
      'creator.last_name as creator_last',
      'saver.first_name as saver_first',
      'saver.last_name as saver_last',
      'publisher.first_name as publisher_first',
      'publisher.last_name as publisher_last',
    ]);
}

function withPeople(
  row: ScenarioVersion & {
    creator_first: Named['first_name'];
    creator_last: Named['last_name'];
    saver_first: Named['first_name'];
    saver_last: Named['last_name'];
    publisher_first: Named['first_name'];
    publisher_last: Named['last_name'];
  },
): VersionWithPeople {
  const { creator_first, creator_last, saver_first, saver_last, publisher_first, publisher_last, ...version } = row;
  return {
    ...version,
    created_by_name: nameOf(creator_first, creator_last),
    saved_by_name: nameOf(saver_first, saver_last),
    published_by_name: nameOf(publisher_first, publisher_last),
  };
}

/** Every version of a scenario, newest first (definitions left out: a history lists, it does not read). */
export async function listVersions(db: DbOrTrx, scenarioId: string): Promise<VersionWithPeople[]> {
  const rows = await versionsWithPeople(db)
    .where('scenario_versions.scenario_id', '=', scenarioId)
    .orderBy('scenario_versions.number', 'desc')
    .execute();
  return rows.map((row) => withPeople({ ...row, definition: '' }));
}

/** One version by its number. */
export async function findVersion(
  db: DbOrTrx,
  scenarioId: string,
  number: number,
): Promise<VersionWithPeople | undefined> {
  const row = await versionsWithPeople(db)
    .where('scenario_versions.scenario_id', '=', scenarioId)
    .where('scenario_versions.number', '=', number)
    .executeTakeFirst();
  return row ? withPeople(row) : undefined;
}

/** The scenario's draft, if any. */
export async function findDraft(db: DbOrTrx, scenarioId: string): Promise<VersionWithPeople | undefined> {
  const row = await versionsWithPeople(db)
    .where('scenario_versions.scenario_id', '=', scenarioId)
    .where('scenario_versions.state', '=', 'draft')
    .executeTakeFirst();
  return row ? withPeople(row) : undefined;
}

/** The current published version of a scenario, if any. */
export function findPublished(db: DbOrTrx, scenarioId: string): Promise<ScenarioVersion | undefined> {
  return db
    .selectFrom('scenario_versions')
    .selectAll()
    .where('scenario_id', '=', scenarioId)
    .where('state', '=', 'published')
    .executeTakeFirst();
}

/** The number the scenario's next version takes. */
export async function nextVersionNumber(db: DbOrTrx, scenarioId: string): Promise<number> {
  const row = await db
    .selectFrom('scenario_versions')
    .select((eb) => eb.fn.max('number').as('highest'))
    .where('scenario_id', '=', scenarioId)
    .executeTakeFirst();
  return Number(row?.highest ?? 0) + 1;
}

/** The newest version loaded from a built-in file: its hash says whether the file changed since. */
export function findLatestBuiltinSource(
  db: DbOrTrx,
  scenarioId: string,
): Promise<Pick<ScenarioVersion, 'source_hash'> | undefined> {
  return db
    .selectFrom('scenario_versions')
    .select('source_hash')
    .where('scenario_id', '=', scenarioId)
    .where('source_hash', 'is not', null)
    .orderBy('number', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The content hash of the file each live built-in scenario was last loaded from, one row per scenario: start-up
 * skips checking a file whose hash is here (it is as last loaded).
 */
export function latestBuiltinSources(db: DbOrTrx): Promise<{ scenario_id: string; source_hash: string }[]> {
  return db
    .selectFrom('scenario_versions as v')
    .innerJoin('scenarios as s', 's.id', 'v.scenario_id')
    .select(['v.scenario_id', 'v.source_hash'])
    .where('s.origin', '=', 'builtin')
    .where('s.deleted_at', 'is', null)
    .where('v.source_hash', 'is not', null)
    .where((eb) =>
      eb(
        'v.number',
        '=',
        eb
          .selectFrom('scenario_versions as w')
          .select((inner) => inner.fn.max('w.number').as('highest'))
          .whereRef('w.scenario_id', '=', 'v.scenario_id')
          .where('w.source_hash', 'is not', null),
      ),
    )
    .$narrowType<{ source_hash: string }>()
    .execute();
}

export async function insertVersion(db: DbOrTrx, version: Insertable<ScenarioVersionsTable>): Promise<void> {
  await db.insertInto('scenario_versions').values(version).execute();
}

/** Rewrites the draft while it is at `revision` (so a stale save changes nothing); the updated row, or undefined. */
export async function updateDraft(
  db: DbOrTrx,
  draft: { id: string; revision: number },
  changes: Pick<ScenarioVersion, 'definition' | 'summary' | 'saved_by' | 'saved_at' | 'based_on'>,
): Promise<boolean> {
  const result = await db
    .updateTable('scenario_versions')
    .set({ ...changes, revision: draft.revision + 1 })
    .where('id', '=', draft.id)
    .where('state', '=', 'draft')
    .where('revision', '=', draft.revision)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the draft while it is at `revision`. */
export async function deleteDraft(db: DbOrTrx, draft: { id: string; revision: number }): Promise<boolean> {
  const result = await db
    .deleteFrom('scenario_versions')
    .where('id', '=', draft.id)
    .where('state', '=', 'draft')
    .where('revision', '=', draft.revision)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Marks the scenario's published version superseded (before another becomes published: one at a time). */
export async function supersedePublished(db: DbOrTrx, scenarioId: string): Promise<void> {
  await db
    .updateTable('scenario_versions')
    .set({ state: 'superseded' })
    .where('scenario_id', '=', scenarioId)
    .where('state', '=', 'published')
    .execute();
}

/** The draft, at `revision`, becomes published with the checked definition; false when it changed meanwhile. */
export async function publishDraft(
  db: DbOrTrx,
  draft: { id: string; revision: number },
  published: Pick<ScenarioVersion, 'definition' | 'published_by' | 'published_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('scenario_versions')
    .set({ ...published, state: 'published' })
    .where('id', '=', draft.id)
    .where('state', '=', 'draft')
    .where('revision', '=', draft.revision)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Changes the scenario row (its listed copy of the current version, its pointers). */
export async function updateScenarioRow(db: DbOrTrx, id: string, changes: Updateable<ScenariosTable>): Promise<void> {
  await db.updateTable('scenarios').set(changes).where('id', '=', id).execute();
}

/** Removes a scenario that was never published (its draft discarded): no run can point at it. */
export async function deleteUnpublishedScenario(db: DbOrTrx, id: string): Promise<boolean> {
  await db.deleteFrom('scenario_versions').where('scenario_id', '=', id).where('state', '=', 'draft').execute();
  const result = await db
    .deleteFrom('scenarios')
    .where('id', '=', id)
    .where('current_version_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A scenario row an admin may author: every one not archived, with its current version and draft numbers. */
export interface AuthoringRow {
  id: string;
  name: string;
  type: string;
  difficulty: number;
  origin: Scenario['origin'];
  updated_at: string;
  current_number: number | null;
  draft_number: number | null;
  draft_revision: number | null;
  draft_saved_at: string | null;
}

export function listAuthoring(db: DbOrTrx): Promise<AuthoringRow[]> {
  return db
    .selectFrom('scenarios')
    .leftJoin('scenario_versions as current', 'current.id', 'scenarios.current_version_id')
    .leftJoin('scenario_versions as draft', 'draft.id', 'scenarios.draft_version_id')
    .select([
      'scenarios.id',
      'scenarios.name',
      'scenarios.type',
      'scenarios.difficulty',
      'scenarios.origin',
      'scenarios.updated_at',
      'current.number as current_number',
      'draft.number as draft_number',
      'draft.revision as draft_revision',
      'draft.saved_at as draft_saved_at',
    ])
    .where('scenarios.deleted_at', 'is', null)
    .orderBy('scenarios.name')
    .orderBy('scenarios.id')
    .execute();
}
