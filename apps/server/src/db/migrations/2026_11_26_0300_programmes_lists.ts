import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';
import { trigramSchema } from './2026_11_23_0801_trigram_search';

// The programmes lists and pickers (cohorts, learning paths, scenarios to assign) answer a page or twenty choices
// however many rows there are (docs/operations.md, "Searching and counting"):
//
// - an index of each list's sort (name, then the key; of published scenarios only), so a page is an index walk;
// - a trigram index of each searched name: FTS5 (tokenizer `trigram`) tables kept by triggers on SQLite, pg_trgm
//   GIN indexes of lower(name) on PostgreSQL (where the extension is there), as for the other admin lists.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const TABLES = ['cohorts', 'learning_paths', 'scenarios'] as const;

const sortIndex = (table: string) => `${table}_name_sort_idx`;
/**
 * The pickers list published scenarios only (deleted_at is null). PostgreSQL walks a partial index of those in
 * name order; SQLite reads `is null` as an equality, so an index led by deleted_at serves it.
 */
const sortColumns = (db: AnyDb, table: string) =>
  table !== 'scenarios'
    ? '(name, id)'
    : isPostgres(db)
      ? '(name, id) where deleted_at is null'
      : '(deleted_at, name, id)';
const trigramIndex = (table: string) => `${table}_name_trgm_idx`;
const fts = (table: string) => `${table}_search`;

export async function up(db: AnyDb): Promise<void> {
  for (const table of TABLES)
    await sql.raw(`create index ${sortIndex(table)} on ${table} ${sortColumns(db, table)}`).execute(db);
  if (isPostgres(db)) {
    const schema = await trigramSchema(db);
    if (schema === null) return;
    for (const table of TABLES) {
      await sql`create index if not exists ${sql.id(trigramIndex(table))} on ${sql.id(table)} using gin ((lower(name)) ${sql.id(schema)}.gin_trgm_ops)`.execute(
        db,
      );
    }
    return;
  }
  for (const table of TABLES) {
    const search = fts(table);
    await sql.raw(`create virtual table ${search} using fts5(id unindexed, name, tokenize = 'trigram')`).execute(db);
    await sql.raw(`insert into ${search} (id, name) select id, name from ${table}`).execute(db);
    await sql
      .raw(
        `create trigger ${search}_insert after insert on ${table} begin ` +
          `insert into ${search} (id, name) values (new.id, new.name); end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${search}_delete after delete on ${table} begin delete from ${search} where id = old.id; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${search}_update after update of name on ${table} begin ` +
          `delete from ${search} where id = old.id; insert into ${search} (id, name) values (new.id, new.name); end`,
      )
      .execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of TABLES) {
    if (isPostgres(db)) await sql`drop index if exists ${sql.id(trigramIndex(table))}`.execute(db);
    else {
      for (const trigger of ['insert', 'delete', 'update'])
        await sql.raw(`drop trigger if exists ${fts(table)}_${trigger}`).execute(db);
      await sql.raw(`drop table if exists ${fts(table)}`).execute(db);
    }
    await sql.raw(`drop index if exists ${sortIndex(table)}`).execute(db);
  }
}
