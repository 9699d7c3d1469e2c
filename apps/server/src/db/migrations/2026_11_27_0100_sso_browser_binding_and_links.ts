import type { Kysely } from 'kysely';

// Single sign-on, hardened (docs/security.md, "Single sign-on").
// `sso_sign_ins.browser_hash`: the SHA-256 of the short-lived cookie set in the browser that started the sign-in;
// the callback is taken only with that cookie, so someone else's callback address signs nobody in. Started
// sign-ins last ten minutes, so the ones in flight are dropped rather than given a binding they never had.
// `sso_link_requests`: an identity whose verified email matches an account that is not yet linked waits here
// (ten minutes, keyed by the SHA-256 of its own cookie) until the person enters that account's password (and
// second factor) on the "Link your account" page. Times are ISO-8601 UTC text.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('sso_sign_ins').execute();
  await db.schema.alterTable('sso_sign_ins').addColumn('browser_hash', 'text').execute();
  await db.schema
    .createTable('sso_link_requests')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('issuer', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('return_to', 'text', (column) => column.notNull())
    // 1 in an admin group, 0 not, null when the provider sent no groups claim (roles are then left alone).
    .addColumn('admin_group', 'integer')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('sso_link_requests_expires_idx').on('sso_link_requests').column('expires_at').execute();
  await db.schema.createIndex('sso_link_requests_user_idx').on('sso_link_requests').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_link_requests').execute();
  await db.schema.alterTable('sso_sign_ins').dropColumn('browser_hash').execute();
}
