import type { Kysely } from 'kysely';

// Training programmes (docs/programmes.md): item analysis per scenario version, certificates when a run ends, and
// editing a learning path.
// - runs (scenario_id, version_id, started_at): the item analysis counts a scenario's runs per version from the
//   index alone and reads a version's newest runs in order.
// - learning_path_steps (scenario_id): the paths a just-finished run's scenario belongs to.
// - learning_paths.revision: an edit names the revision it started from; a stale one answers 409.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('runs_scenario_version_idx')
    .on('runs')
    .columns(['scenario_id', 'version_id', 'started_at'])
    .execute();
  await db.schema
    .createIndex('learning_path_steps_scenario_idx')
    .on('learning_path_steps')
    .column('scenario_id')
    .execute();
  await db.schema
    .alterTable('learning_paths')
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('learning_paths').dropColumn('revision').execute();
  await db.schema.dropIndex('learning_path_steps_scenario_idx').execute();
  await db.schema.dropIndex('runs_scenario_version_idx').execute();
}
