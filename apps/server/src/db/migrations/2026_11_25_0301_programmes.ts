import type { Kysely } from 'kysely';

// Training programmes: cohorts and their members, learning paths (ordered scenarios), assignments with due
// dates, the notices the periodic check has sent (each once), and certificates of completed paths.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cohorts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('archived_at', 'text')
    .execute();

  await db.schema
    .createTable('cohort_members')
    .addColumn('cohort_id', 'text', (col) => col.notNull().references('cohorts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('added_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('cohort_members_pk', ['cohort_id', 'user_id'])
    .execute();
  await db.schema.createIndex('cohort_members_user_idx').on('cohort_members').column('user_id').execute();

  await db.schema
    .createTable('learning_paths')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('unlock', 'text', (col) => col.notNull()) // sequential | open
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('archived_at', 'text')
    .execute();

  await db.schema
    .createTable('learning_path_steps')
    .addColumn('path_id', 'text', (col) => col.notNull().references('learning_paths.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('scenario_id', 'text', (col) => col.notNull().references('scenarios.id'))
    .addPrimaryKeyConstraint('learning_path_steps_pk', ['path_id', 'position'])
    .execute();

  await db.schema
    .createTable('assignments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('scenario_id', 'text', (col) => col.references('scenarios.id'))
    .addColumn('path_id', 'text', (col) => col.references('learning_paths.id'))
    .addColumn('cohort_id', 'text', (col) => col.references('cohorts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
    .addColumn('note', 'text', (col) => col.notNull())
    .addColumn('due_at', 'text')
    .addColumn('assigned_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('cancelled_at', 'text')
    .execute();
  await db.schema.createIndex('assignments_cohort_idx').on('assignments').column('cohort_id').execute();
  await db.schema.createIndex('assignments_user_idx').on('assignments').column('user_id').execute();
  await db.schema.createIndex('assignments_due_idx').on('assignments').columns(['due_at', 'cancelled_at']).execute();

  await db.schema
    .createTable('assignment_notices')
    .addColumn('assignment_id', 'text', (col) => col.notNull().references('assignments.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('notice', 'text', (col) => col.notNull()) // due_soon | overdue | overdue_admin
    .addColumn('sent_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('assignment_notices_pk', ['assignment_id', 'user_id', 'notice'])
    .execute();

  await db.schema
    .createTable('certificates')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('path_id', 'text', (col) => col.notNull().references('learning_paths.id'))
    .addColumn('holder_name', 'text', (col) => col.notNull())
    .addColumn('path_name', 'text', (col) => col.notNull())
    .addColumn('issued_at', 'text', (col) => col.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addUniqueConstraint('certificates_user_path_unique', ['user_id', 'path_id'])
    .execute();

  // Item analysis reads a scenario's decisions by step.
  await db.schema
    .createIndex('run_decisions_run_step_idx')
    .on('run_decisions')
    .columns(['run_id', 'step_id', 'first_submission'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('run_decisions_run_step_idx').execute();
  for (const table of [
    'certificates',
    'assignment_notices',
    'assignments',
    'learning_path_steps',
    'learning_paths',
    'cohort_members',
    'cohorts',
  ])
    await db.schema.dropTable(table).execute();
}
