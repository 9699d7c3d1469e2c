import type { Kysely } from 'kysely';

// People of one role in name order (the cohort page's "add trainees" list, docs/programmes.md): an index walk
// that stops at the page's end, where a sort of every account grew with the number of accounts.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('users_role_name_idx')
    .on('users')
    .columns(['role', 'last_name', 'first_name', 'id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_role_name_idx').execute();
}
