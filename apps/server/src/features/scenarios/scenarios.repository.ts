import type { DbOrTrx } from '../../db/database';
import type { Scenario, ScenariosTable } from '../../db/schema';
import { sql, type Insertable } from 'kysely';
import { DIFFICULTY_SETTING_KEY } from '../settings/setting-keys';

export interface ScenarioListRow {
  id: string;
  name: string;
  type: string;
  difficulty: number;
  description: string;
  step_count: number;
  content_hash: string;
  created_at: string;
  /** The platform difficulty setting as stored (null when never set). */
  platform_difficulty: string | null;
}

/** Every scenario trainees may play (published, not archived), by name, each with the platform difficulty: one query for the picker. */
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
      'scenarios.content_hash',
      'scenarios.created_at',
      'settings.value as platform_difficulty',
    ])
    .where('scenarios.deleted_at', 'is', null)
    .where('scenarios.current_version_id', 'is not', null)
    .orderBy('scenarios.name')
    .orderBy('scenarios.id')
    .execute();
}

/** The stored definitions of some scenarios (JSON text), by id. */
export function findScenarioDefinitions(
  db: DbOrTrx,
  ids: readonly string[],
): Promise<{ id: string; definition: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('scenarios').select(['id', 'definition']).where('id', 'in', ids).execute();
}

/** One of a user's runs that the picker shows: their best completed, latest in progress or latest ended run of a scenario. */
export interface PickerRunRow {
  id: string;
  scenario_id: string;
  scenario_name: string;
  step_count: number;
  status: 'in_progress' | 'completed' | 'ended';
  score_thousandths: number;
  percent_base: number;
  pending_reviews: number;
  started_at: string;
  finished_at: string | null;
  /** 0/1: the current visit was answered. */
  visit_submitted: number;
  /** Visits answered (first submissions), so the step they are at is this - visit_submitted + 1. */
  answered_visits: number;
  /** How many of the user's runs of this scenario have this status. */
  runs_with_status: number;
  /** When the user's latest run of this scenario started, whatever its status. */
  latest_started_at: string;
}

/**
 * For one user, in one query whatever the size of their history: per scenario and status, the run the picker
 * shows (completed: the best percent, then the latest started; in progress and ended: the latest started) and how many runs
 * have that status. The ratio orders runs only: the percent itself is computed from the row (runFigures).
 */
export async function listPickerRuns(db: DbOrTrx, userId: string): Promise<PickerRunRow[]> {
  const ranked = db
    .selectFrom('runs')
    .select([
      'id',
      'scenario_id',
      'scenario_name',
      'step_count',
      'status',
      'score_thousandths',
      'percent_base',
      'pending_reviews',
      'started_at',
      'finished_at',
      'visit_submitted',
      sql<number>`row_number() over (partition by scenario_id, status order by case when status = 'completed' and percent_base > 0 then score_thousandths * 1.0 / percent_base else 0 end desc, started_at desc, id desc)`.as(
        'rank',
      ),
      sql<number>`count(*) over (partition by scenario_id, status)`.as('runs_with_status'),
      // The run a start would continue is the latest started (runs.service, startRunOn): an ended run is
      // resumable when no later run of the scenario exists.
      sql<string>`max(started_at) over (partition by scenario_id)`.as('latest_started_at'),
    ])
    .where('user_id', '=', userId);
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .selectAll('ranked')
    .select((eb) =>
      eb
        .selectFrom('run_decisions')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('run_decisions.run_id', '=', 'ranked.id')
        .where('run_decisions.first_submission', '=', 1)
        .as('answered_visits'),
    )
    .where('ranked.rank', '=', 1)
    .execute();
  return rows.map(({ rank: _rank, ...row }) => ({
    ...row,
    answered_visits: Number(row.answered_visits ?? 0),
    runs_with_status: Number(row.runs_with_status),
  }));
}

/** How many scenarios trainees may play: the list's length without reading the list. */
export async function countActiveScenarios(db: DbOrTrx): Promise<number> {
  const row = await db
    .selectFrom('scenarios')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('deleted_at', 'is', null)
    .where('current_version_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A scenario that has not been deleted and has a published version (a draft-only one is not in the library). */
export async function findActiveScenario(db: DbOrTrx, id: string): Promise<Scenario | undefined> {
  return db
    .selectFrom('scenarios')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('current_version_id', 'is not', null)
    .executeTakeFirst();
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
