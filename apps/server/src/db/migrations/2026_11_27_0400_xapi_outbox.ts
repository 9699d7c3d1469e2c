import type { Kysely } from 'kysely';

// The xAPI outbox (docs/interoperability.md, "xAPI"). Each statement is written, already built and with its own
// id, in the transaction of the answer or run change it reports, then sent to the Learning Record Store in
// batches, oldest first. `next_attempt_at` is when it may be sent next: a sender claims a batch by moving it
// forward (a lease), so two server processes never send one statement at once, and a failure moves it by the
// backoff; nothing is sent past a statement that waits. A delivered
// statement keeps its row with `sent_at` for a week (the dashboard's "last delivered"); one the LRS refused for
// good has `rejected_at` and is not tried again. Times are ISO-8601 UTC text.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('xapi_outbox')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('run_id', 'text', (column) => column.notNull())
    .addColumn('seq', 'integer', (column) => column.notNull())
    .addColumn('statement', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('rejected_at', 'text')
    .execute();
  // The sender's question: statements neither sent nor refused, in the order they happened.
  await db.schema
    .createIndex('xapi_outbox_waiting_idx')
    .on('xapi_outbox')
    .columns(['sent_at', 'rejected_at', 'created_at', 'seq'])
    .execute();
  // The dashboard's figures: the latest delivery, the refused statements and the latest error.
  for (const column of ['sent_at', 'rejected_at', 'last_error_at']) {
    await db.schema.createIndex(`xapi_outbox_${column}_idx`).on('xapi_outbox').column(column).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('xapi_outbox').execute();
}
