import type { Kysely } from 'kysely';

// Mail (docs/operations.md, "Mail"). Each message is written, already rendered (text and HTML), in the
// transaction of what caused it, then sent by the mail sender. `next_attempt_at` is when it may be sent next: a
// sender claims a message by moving it forward (a lease), so two server processes never send one message, and a
// failure moves it by the backoff. A delivered message keeps its row with `sent_at` for a week (the dashboard's
// "last delivered"); one the mail server refused for good has `rejected_at`. Times are ISO-8601 UTC text.
// `mail_preferences` holds each person's choice to get their notifications by mail (off when absent).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('recipient', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('text_body', 'text', (column) => column.notNull())
    .addColumn('html_body', 'text', (column) => column.notNull())
    .addColumn('headers', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('rejected_at', 'text')
    .execute();
  await db.schema
    .createIndex('mail_outbox_waiting_idx')
    .on('mail_outbox')
    .columns(['sent_at', 'rejected_at', 'next_attempt_at'])
    .execute();
  for (const column of ['sent_at', 'last_error_at']) {
    await db.schema.createIndex(`mail_outbox_${column}_idx`).on('mail_outbox').column(column).execute();
  }
  await db.schema
    .createTable('mail_preferences')
    .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email_notices', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_preferences').execute();
  await db.schema.dropTable('mail_outbox').execute();
}
