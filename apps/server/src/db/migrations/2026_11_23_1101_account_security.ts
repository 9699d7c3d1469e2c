import type { Kysely } from 'kysely';

// Second factors (one-time-code apps and passkeys), hashed recovery codes, sign-ins waiting for their second
// step, and short-lived challenges (a one-time-code secret being enrolled, a WebAuthn challenge).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('second_factors')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull()) // 'totp' | 'passkey'
    .addColumn('label', 'text', (col) => col.notNull())
    .addColumn('totp_secret', 'text')
    .addColumn('credential_id', 'text', (col) => col.unique())
    .addColumn('public_key', 'text')
    .addColumn('sign_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('transports', 'text')
    .addColumn('last_totp_step', 'integer')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('second_factors_user_idx').on('second_factors').column('user_id').execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').column('user_id').execute();

  // Password spraying: failed sign-ins of one address over many accounts.
  await db.schema.createIndex('login_events_ip_idx').on('login_events').columns(['ip', 'event', 'at']).execute();

  await db.schema
    .createTable('pending_sign_ins')
    .addColumn('id', 'text', (col) => col.primaryKey()) // sha-256 of the cookie token
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('challenge', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('enrolment_challenges')
    .addColumn('session_id', 'text', (col) => col.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('enrolment_challenges_pk', ['session_id', 'kind'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('enrolment_challenges').execute();
  await db.schema.dropTable('pending_sign_ins').execute();
  await db.schema.dropIndex('login_events_ip_idx').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('second_factors').execute();
}
