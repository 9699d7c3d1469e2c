import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Two things that let the admin lists answer in the same time at ten times the data (docs/operations.md,
// "Searching and counting"):
//
// 1. SQLite: trigram full-text indexes (FTS5, tokenizer `trigram`) of the columns the admin lists search with
//    "contains". A phrase query on a trigram index finds exactly the rows holding the text (three characters or
//    more), so a search reads the matches rather than the table. PostgreSQL has pg_trgm indexes of the same
//    columns (2026_11_23_0801) and needs none of this.
// 2. Both databases: an index of sign-in events by (email, event), so "has this admin ever changed the password"
//    (the setup checklist) is one lookup rather than a walk of every event of that kind.
// 3. Both databases: `row_counts`, counts kept by triggers as rows are written (every sign-in event, and each
//    kind of event), so the User Monitoring cards read two rows instead of counting the whole history.

/**
 * SQLite FTS5 tables kept by triggers: each names its source table, the source's key (`rowid` where it is an
 * integer, so a row is found again through the index; users' keys are text and live in an unindexed column, read
 * only when an account is deleted), the columns whose change rewrites the entry, and each searched column as an
 * expression of a row (`new`, `old` or the table itself).
 */
const SQLITE_SEARCH_TABLES: {
  fts: string;
  table: string;
  key: 'rowid' | 'id';
  watched: string[];
  columns: Record<string, (row: string) => string>;
}[] = [
  {
    fts: 'login_events_search',
    table: 'login_events',
    key: 'rowid',
    watched: ['email'],
    columns: { email: (row) => `${row}.email` },
  },
  {
    fts: 'audit_log_search',
    table: 'audit_log',
    key: 'rowid',
    watched: ['actor', 'action', 'details', 'screen'],
    columns: {
      actor: (row) => `${row}.actor`,
      action: (row) => `${row}.action`,
      details: (row) => `${row}.details`,
      screen: (row) => `${row}.screen`,
    },
  },
  {
    fts: 'users_search',
    table: 'users',
    key: 'id',
    watched: ['email', 'first_name', 'last_name', 'designation'],
    columns: {
      email: (row) => `${row}.email`,
      full_name: (row) => `${row}.first_name || ' ' || ${row}.last_name`,
      designation: (row) => `${row}.designation`,
    },
  },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function sqliteSearchTables(db: Kysely<any>): Promise<void> {
  for (const { fts, table, key, watched, columns } of SQLITE_SEARCH_TABLES) {
    const names = [key, ...Object.keys(columns)].join(', ');
    const source = (row: string) => `${row}.${key === 'rowid' ? 'id' : key}`;
    const values = (row: string) => [source(row), ...Object.values(columns).map((column) => column(row))].join(', ');
    const keyColumn = key === 'rowid' ? [] : [`${key} unindexed`];
    await sql
      .raw(
        `create virtual table ${fts} using fts5(${[...keyColumn, ...Object.keys(columns)].join(', ')}, tokenize = 'trigram')`,
      )
      .execute(db);
    await sql.raw(`insert into ${fts} (${names}) select ${values(table)} from ${table}`).execute(db);
    await sql
      .raw(
        `create trigger ${fts}_insert after insert on ${table} begin insert into ${fts} (${names}) values (${values('new')}); end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${fts}_delete after delete on ${table} begin delete from ${fts} where ${key} = ${source('old')}; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${fts}_update after update of ${watched.join(', ')} on ${table} begin ` +
          `delete from ${fts} where ${key} = ${source('old')}; insert into ${fts} (${names}) values (${values('new')}); end`,
      )
      .execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rowCounts(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('row_counts')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'bigint', (col) => col.notNull())
    .execute();
  await sql`insert into row_counts (name, value) select 'login_events', count(*) from login_events`.execute(db);
  await sql`insert into row_counts (name, value)
    select 'login_events:' || event, count(*) from login_events group by event`.execute(db);
  if (isPostgres(db)) await pgRowCountTrigger(db);
  else {
    await sql
      .raw(`create trigger login_events_count_insert after insert on login_events begin ${bump('new', 1)}; end`)
      .execute(db);
    await sql
      .raw(`create trigger login_events_count_delete after delete on login_events begin ${bump('old', -1)}; end`)
      .execute(db);
  }
}

const bump = (row: 'new' | 'old', by: 1 | -1) =>
  `insert into row_counts (name, value) values ('login_events', ${by}), ('login_events:' || ${row}.event, ${by}) ` +
  `on conflict (name) do update set value = row_counts.value + excluded.value`;

/** PostgreSQL's per-row trigger keeping row_counts (2026_11_26_0001 replaces it by triggers per statement). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function pgRowCountTrigger(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function login_events_row_counts() returns trigger language plpgsql as $$ begin ` +
        `if tg_op = 'INSERT' then ${bump('new', 1)}; return new; ` +
        `else ${bump('old', -1)}; return old; end if; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger login_events_row_counts after insert or delete on login_events ` +
        `for each row execute function login_events_row_counts()`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await sqliteSearchTables(db);
  await db.schema.createIndex('login_events_email_event_idx').on('login_events').columns(['email', 'event']).execute();
  await rowCounts(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists login_events_row_counts on login_events`.execute(db);
    await sql`drop function if exists login_events_row_counts()`.execute(db);
  } else {
    await sql`drop trigger if exists login_events_count_insert`.execute(db);
    await sql`drop trigger if exists login_events_count_delete`.execute(db);
    for (const { fts } of SQLITE_SEARCH_TABLES) {
      for (const suffix of ['insert', 'delete', 'update'])
        await sql.raw(`drop trigger if exists ${fts}_${suffix}`).execute(db);
      await sql.raw(`drop table if exists ${fts}`).execute(db);
    }
  }
  await db.schema.dropIndex('login_events_email_event_idx').execute();
  await db.schema.dropTable('row_counts').execute();
}
