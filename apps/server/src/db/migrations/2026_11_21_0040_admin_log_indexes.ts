import type { Kysely } from 'kysely';

// User Monitoring sorts a million sign-in events by role as well as by email, event and time; each sort
// column gets an index that ends in the timestamp, so a page is an index walk, not a sort of the table.
// The bell counts a user's unread notifications on every page load.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('login_events_role_at_idx').on('login_events').columns(['role', 'at']).execute();
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .columns(['recipient_id', 'read_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notifications_unread_idx').execute();
  await db.schema.dropIndex('login_events_role_at_idx').execute();
}
