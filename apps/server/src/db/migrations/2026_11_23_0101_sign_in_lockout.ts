import type { Kysely } from 'kysely';

// Three wrong passwords lock an account for a cooling-off period instead of disabling it: `disabled` stays an
// admin's deliberate choice, and `locked_until` (ISO-8601 UTC, null when not locked) lifts by itself.
// Accounts that the old rule disabled after three failures cannot be told apart from deliberate disables,
// so they stay disabled; an admin re-enables them as before.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('locked_until', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('locked_until').execute();
}
