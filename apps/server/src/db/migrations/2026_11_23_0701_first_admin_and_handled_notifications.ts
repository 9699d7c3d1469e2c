import type { Kysely } from 'kysely';

// - users.must_change_password: 1 for an account whose password was printed on the console (the generated
//   first admin): until its owner chooses a new one, that account may do nothing else.
// - notifications.subject_id: what a notification is about (the registering user's id for a registration),
//   so handling the registration marks every admin's copy handled at once.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('must_change_password', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('notifications').addColumn('subject_id', 'text').execute();
  await db.schema
    .createIndex('notifications_kind_subject_idx')
    .on('notifications')
    .columns(['kind', 'subject_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notifications_kind_subject_idx').execute();
  await db.schema.alterTable('notifications').dropColumn('subject_id').execute();
  await db.schema.alterTable('users').dropColumn('must_change_password').execute();
}
