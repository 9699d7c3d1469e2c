import type { DbOrTrx } from '../db/database';

/**
 * The definition (JSON text) of the scenario version a run played: the one it pinned, or, for a run recorded
 * without one, its scenario's current version (docs/authoring.md). Deleted scenarios too, so reports and reviews of
 * old runs keep their steps. Undefined when neither exists. Shared by the report and the review queue.
 */
export async function findPlayedDefinition(
  db: DbOrTrx,
  run: { version_id: string | null; scenario_id: string },
): Promise<string | undefined> {
  if (run.version_id !== null) {
    const pinned = await db
      .selectFrom('scenario_versions')
      .select('definition')
      .where('id', '=', run.version_id)
      .executeTakeFirst();
    return pinned?.definition;
  }
  const current = await db
    .selectFrom('scenarios')
    .innerJoin('scenario_versions', 'scenario_versions.id', 'scenarios.current_version_id')
    .select('scenario_versions.definition')
    .where('scenarios.id', '=', run.scenario_id)
    .executeTakeFirst();
  return current?.definition;
}
