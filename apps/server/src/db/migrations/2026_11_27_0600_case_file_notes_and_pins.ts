import type { Kysely } from 'kysely';

// The case file of a run (features/casefile): the trainee's notebook, one per run, and the evidence board's pins
// (a whole artifact, line 0, or one line of it, from 1). Both go with their run.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('run_notes')
    .addColumn('run_id', 'text', (col) => col.primaryKey().references('runs.id').onDelete('cascade'))
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('run_pins')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('run_id', 'text', (col) => col.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('step_id', 'text', (col) => col.notNull())
    .addColumn('artifact_index', 'integer', (col) => col.notNull())
    .addColumn('line', 'integer', (col) => col.notNull())
    .addColumn('quote', 'text', (col) => col.notNull())
    .addColumn('pinned_at', 'text', (col) => col.notNull())
    .execute();
  // One pin per artifact or line; the board lists a run's pins in the order they were made.
  await db.schema
    .createIndex('run_pins_one_per_line_idx')
    .on('run_pins')
    .columns(['run_id', 'step_id', 'artifact_index', 'line'])
    .unique()
    .execute();
  await db.schema.createIndex('run_pins_run_pinned_idx').on('run_pins').columns(['run_id', 'pinned_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('run_pins').execute();
  await db.schema.dropTable('run_notes').execute();
}
