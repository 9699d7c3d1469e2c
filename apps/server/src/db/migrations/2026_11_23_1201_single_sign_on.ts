import type { Kysely } from 'kysely';

// Single sign-on (OpenID Connect). `sso_identities` links an identity provider's subject to an account, so a
// changed email at the provider still signs in the same person. `sso_sign_ins` holds each started sign-in's
// state, nonce and PKCE verifier for ten minutes; in the database rather than in memory so the callback may
// reach another server than the one that sent the browser away. Times are ISO-8601 UTC text.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sso_identities')
    .addColumn('issuer', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_sign_in_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('sso_identities_pk', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('sso_identities_user_idx').on('sso_identities').column('user_id').execute();
  await db.schema
    .createTable('sso_sign_ins')
    .addColumn('state', 'text', (column) => column.primaryKey())
    .addColumn('nonce', 'text', (column) => column.notNull())
    .addColumn('code_verifier', 'text', (column) => column.notNull())
    .addColumn('return_to', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('sso_sign_ins_expires_idx').on('sso_sign_ins').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_sign_ins').execute();
  await db.schema.dropTable('sso_identities').execute();
}
