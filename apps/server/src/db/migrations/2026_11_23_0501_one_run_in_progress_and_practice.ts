import { sql, type Kysely } from 'kysely';

// One run in progress per trainee and scenario: a second start returns the run in progress (or, asked to start
// over, ends it first), and this index makes that hold under concurrent starts too. Duplicates recorded before
// it (every visit of the player started a run) are ended, newest kept, so they stay in history.
//
// Practice: "Practise this step" replays a missed step of a finished run. Each attempt is recorded here, apart
// from the run's decisions, so it never changes the run's score, the skill map or the reports' figures.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update runs set status = 'ended', finished_at = updated_at
    where status = 'in_progress' and exists (
      select 1 from runs newer
      where newer.user_id = runs.user_id and newer.scenario_id = runs.scenario_id and newer.status = 'in_progress'
        and (newer.started_at > runs.started_at or (newer.started_at = runs.started_at and newer.id > runs.id)))`.execute(
    db,
  );
  await sql`create unique index runs_one_in_progress_idx on runs (user_id, scenario_id) where status = 'in_progress'`.execute(
    db,
  );
  // The latest run of a scenario (the one Start Simulation and Resume continue).
  await db.schema
    .createIndex('runs_user_scenario_started_idx')
    .on('runs')
    .columns(['user_id', 'scenario_id', 'started_at'])
    .execute();

  await db.schema
    .createTable('run_practice')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('run_id', 'text', (col) => col.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('step_id', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    // Set once, by the one answer an attempt takes.
    .addColumn('answered_at', 'text')
    .addColumn('credit_thousandths', 'integer')
    .addColumn('decision', 'text')
    .addColumn('feedback', 'text')
    .addColumn('result', 'text')
    .addColumn('time_ms', 'integer')
    .execute();
  await db.schema.createIndex('run_practice_run_idx').on('run_practice').columns(['run_id', 'started_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('run_practice').execute();
  await db.schema.dropIndex('runs_user_scenario_started_idx').execute();
  await db.schema.dropIndex('runs_one_in_progress_idx').execute();
}
