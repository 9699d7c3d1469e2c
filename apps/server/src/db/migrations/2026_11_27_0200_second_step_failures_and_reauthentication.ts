import type { Kysely } from 'kysely';

// users.second_step_failures counts wrong second steps (one-time code, recovery code, passkey) since the account's
// last completed sign-in; only a completed sign-in resets it (a right password no longer does), so knowing the
// password does not buy fresh guesses at the code. users.second_step_failed_at is the last wrong one (backoff).
// sessions.authenticated_at is when the session's person last proved who they are (a password or a second
// factor): account-security changes need it to be recent. Sessions open before this migration have none and
// are asked to confirm their password first.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('second_step_failures', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('second_step_failed_at', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('authenticated_at', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('authenticated_at').execute();
  await db.schema.alterTable('users').dropColumn('second_step_failed_at').execute();
  await db.schema.alterTable('users').dropColumn('second_step_failures').execute();
}
