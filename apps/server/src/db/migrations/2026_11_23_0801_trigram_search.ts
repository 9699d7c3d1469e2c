import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// The admin lists' searches are "contains, ignoring case": lower(column) LIKE '%text%', which no B-tree index
// serves, so each search read the whole table. On PostgreSQL a trigram GIN index of lower(column) serves it
// (pg_trgm, shipped with PostgreSQL and trusted: a database owner may create it). Where the extension cannot
// be created the searches keep working as before, by scanning. SQLite has no such index: nothing changes there.
const TRIGRAM_INDEXES: { name: string; table: string; expression: string }[] = [
  { name: 'audit_log_actor_trgm_idx', table: 'audit_log', expression: 'lower(actor)' },
  { name: 'audit_log_action_trgm_idx', table: 'audit_log', expression: 'lower(action)' },
  { name: 'audit_log_details_trgm_idx', table: 'audit_log', expression: 'lower(details)' },
  { name: 'audit_log_screen_trgm_idx', table: 'audit_log', expression: 'lower(screen)' },
  { name: 'login_events_email_trgm_idx', table: 'login_events', expression: 'lower(email)' },
  { name: 'users_email_trgm_idx', table: 'users', expression: 'lower(email)' },
  { name: 'users_name_trgm_idx', table: 'users', expression: "lower(first_name || ' ' || last_name)" },
  { name: 'users_designation_trgm_idx', table: 'users', expression: 'lower(designation)' },
];

/** The schema pg_trgm is installed in, or null when it is not. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema ?? null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  let schema = await trigramSchema(db);
  if (schema === null) {
    // Migrations run in one transaction: a refused CREATE EXTENSION rolls back to the savepoint only.
    await sql`savepoint create_pg_trgm`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm with schema public`.execute(db);
      await sql`release savepoint create_pg_trgm`.execute(db);
    } catch {
      await sql`rollback to savepoint create_pg_trgm`.execute(db);
      return;
    }
    schema = await trigramSchema(db);
    if (schema === null) return;
  }
  for (const index of TRIGRAM_INDEXES) {
    await sql`create index if not exists ${sql.id(index.name)} on ${sql.id(index.table)} using gin ((${sql.raw(
      index.expression,
    )}) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const index of TRIGRAM_INDEXES) await sql`drop index if exists ${sql.id(index.name)}`.execute(db);
}
