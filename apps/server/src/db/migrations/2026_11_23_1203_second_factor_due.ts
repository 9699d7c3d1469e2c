import type { Kysely } from 'kysely';

// sessions.second_factor_due: 1 for a session opened while the platform's second-factor policy covered the
// person and they had none. Until they enrol one, that session may only enrol (and read what its page needs);
// enrolling clears it on every session of theirs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('second_factor_due', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('second_factor_due').execute();
}
