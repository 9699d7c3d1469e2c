import type { Kysely } from 'kysely';
import { serialType } from './dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scenarios')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('difficulty', 'integer', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('definition', 'text', (col) => col.notNull()) // the checked scenario as JSON
    .addColumn('step_count', 'integer', (col) => col.notNull())
    .addColumn('origin', 'text', (col) => col.notNull()) // builtin | upload
    .addColumn('content_hash', 'text', (col) => col.notNull())
    .addColumn('source_file_id', 'text', (col) => col.references('files.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('scenarios_deleted_at_idx').on('scenarios').column('deleted_at').execute();

  await db.schema
    .createTable('runs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scenario_id', 'text', (col) => col.notNull().references('scenarios.id'))
    .addColumn('scenario_name', 'text', (col) => col.notNull())
    .addColumn('step_count', 'integer', (col) => col.notNull())
    .addColumn('current_step_id', 'text', (col) => col.notNull())
    .addColumn('current_answered', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_option_index', 'integer')
    .addColumn('score', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('technique_counts', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (col) => col.notNull()) // in_progress | completed | ended
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('runs_user_started_idx').on('runs').columns(['user_id', 'started_at']).execute();
  await db.schema.createIndex('runs_started_idx').on('runs').columns(['started_at', 'id']).execute();
  await db.schema.createIndex('runs_scenario_idx').on('runs').column('scenario_id').execute();

  await db.schema
    .createTable('run_decisions')
    .addColumn('id', serialType(db), (col) => col.primaryKey())
    .addColumn('run_id', 'text', (col) => col.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('step_id', 'text', (col) => col.notNull())
    .addColumn('option_index', 'integer', (col) => col.notNull())
    .addColumn('correct', 'integer', (col) => col.notNull())
    .addColumn('decision', 'text', (col) => col.notNull())
    .addColumn('feedback', 'text', (col) => col.notNull())
    .addColumn('technique', 'text')
    .addColumn('time_ms', 'integer')
    .addColumn('at', 'text', (col) => col.notNull())
    .addUniqueConstraint('run_decisions_run_seq_unique', ['run_id', 'seq'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('run_decisions').execute();
  await db.schema.dropTable('runs').execute();
  await db.schema.dropTable('scenarios').execute();
}
