import type { DbOrTrx } from '../../db/database';
import type { Scenario, ScenariosTable } from '../../db/schema';
import type { Insertable } from 'kysely';
import { DIFFICULTY_SETTING_KEY } from '../settings/setting-keys';

export interface ScenarioListRow {
  id: string;
  name: string;
  type: string;
  difficulty: number;
  description: string;
  step_count: number;
  /** The platform difficulty setting as stored (null when never set). */
  platform_difficulty: string | null;
}

/** Every scenario trainees may play, by name, each with the platform difficulty: one query for the picker. */
export async function listActiveScenarios(db: DbOrTrx): Promise<ScenarioListRow[]> {
  return db
    .selectFrom('scenarios')
    .leftJoin('settings', (join) => join.on('settings.key', '=', DIFFICULTY_SETTING_KEY))
    .select([
      'scenarios.id',
      'scenarios.name',
      'scenarios.type',
      'scenarios.difficulty',
      'scenarios.description',
      'scenarios.step_count',
      'settings.value as platform_difficulty',
    ])
    .where('scenarios.deleted_at', 'is', null)
    .orderBy('scenarios.name')
    .orderBy('scenarios.id')
    .execute();
}

/** How many scenarios trainees may play: the list's length without reading the list. */
export async function countActiveScenarios(db: DbOrTrx): Promise<number> {
  const row = await db
    .selectFrom('scenarios')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A scenario that has not been deleted. */
export async function findActiveScenario(db: DbOrTrx, id: string): Promise<Scenario | undefined> {
  return db.selectFrom('scenarios').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export interface ScenarioState {
  id: string;
  origin: Scenario['origin'];
  content_hash: string;
  deleted_at: string | null;
}

/** What the loader and the upload need to know about ids already taken, deleted scenarios included. */
export async function findScenarioStates(db: DbOrTrx, ids: readonly string[]): Promise<ScenarioState[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('scenarios')
    .select(['id', 'origin', 'content_hash', 'deleted_at'])
    .where('id', 'in', [...ids])
    .execute();
}

/** Inserts a scenario; an id another process inserted a moment ago is left alone (returns false). */
export async function insertScenario(db: DbOrTrx, scenario: Insertable<ScenariosTable>): Promise<boolean> {
  const result = await db
    .insertInto('scenarios')
    .values(scenario)
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export type BuiltinScenarioUpdate = Pick<
  ScenariosTable,
  'name' | 'type' | 'difficulty' | 'description' | 'definition' | 'step_count' | 'content_hash' | 'updated_at'
>;

/** Rewrites a built-in scenario whose file changed; a deleted one, or an upload with that id, is left alone. */
export async function updateBuiltinScenario(db: DbOrTrx, id: string, update: BuiltinScenarioUpdate): Promise<boolean> {
  const result = await db
    .updateTable('scenarios')
    .set(update)
    .where('id', '=', id)
    .where('origin', '=', 'builtin')
    .where('deleted_at', 'is', null)
    .where('content_hash', '!=', update.content_hash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks a scenario deleted (its runs keep pointing at it); false when it was already gone. */
export async function softDeleteScenario(db: DbOrTrx, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('scenarios')
    .set({ deleted_at: at, updated_at: at })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
