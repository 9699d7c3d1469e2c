import type { Kysely } from 'kysely';
import { serialType } from './dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_events')
    .addColumn('id', serialType(db), (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('ip', 'text')
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('login_events_at_idx').on('login_events').columns(['at', 'id']).execute();
  await db.schema.createIndex('login_events_email_idx').on('login_events').columns(['email', 'at']).execute();
  await db.schema.createIndex('login_events_event_at_idx').on('login_events').columns(['event', 'at']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', serialType(db), (col) => col.primaryKey())
    .addColumn('actor', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('details', 'text')
    .addColumn('screen', 'text')
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute();

  // Fixed-window counters for the sign-in and registration limits, shared by every server process.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addColumn('window_ends_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', serialType(db), (col) => col.primaryKey())
    .addColumn('recipient_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('link', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema
    .createIndex('notifications_recipient_idx')
    .on('notifications')
    .columns(['recipient_id', 'created_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('login_events').execute();
}
