import { sql, type Kysely } from 'kysely';

// Found by the pages benchmark (bench/pages): requests that slowed down in step with the data.
// - The dashboard's recommendations ask, per scenario, whether the trainee completed it: with only
//   (scenario_id) to go on, each question read every run of that scenario (118 ms at 100,000 runs).
// - Training Progress sorted by user had to sort every run; with (user_id, started_at, id) it walks the
//   users' email index and each user's runs in order. That index also serves everything the narrower
//   (user_id, started_at) did, so that one goes.
// - Audit Log sorts text columns case-insensitively (lower(coalesce(column, ''))), then by (at, id): each
//   sortable column gets an index of that very expression, so a page is an index walk, not a sort.
const AUDIT_SORT_COLUMNS = ['actor', 'action', 'details', 'screen'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('runs_user_scenario_idx')
    .on('runs')
    .columns(['user_id', 'scenario_id', 'status'])
    .execute();
  await db.schema.createIndex('runs_user_started_id_idx').on('runs').columns(['user_id', 'started_at', 'id']).execute();
  await db.schema.dropIndex('runs_user_started_idx').execute();
  for (const column of AUDIT_SORT_COLUMNS) {
    await sql`create index ${sql.raw(`audit_log_${column}_sort_idx`)} on audit_log ((lower(coalesce(${sql.raw(column)}, ''))), at, id)`.execute(
      db,
    );
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of AUDIT_SORT_COLUMNS) await db.schema.dropIndex(`audit_log_${column}_sort_idx`).execute();
  await db.schema.createIndex('runs_user_started_idx').on('runs').columns(['user_id', 'started_at']).execute();
  await db.schema.dropIndex('runs_user_started_id_idx').execute();
  await db.schema.dropIndex('runs_user_scenario_idx').execute();
}
