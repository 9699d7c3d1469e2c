import { sql, type Kysely } from 'kysely';
import { pgRowCountTrigger } from './2026_11_25_0001_search_indexes_and_counts';
import { trigramSchema } from './2026_11_23_0801_trigram_search';
import { isPostgres } from './dialect';

// The sign-in list's email search, at a cost that does not grow with the history (docs/operations.md,
// "Searching and counting"). A trigram index over every sign-in event (2026_11_25_0001) still read one entry per
// event for each trigram of the search: a million events of ten thousand people made "seed-00012" read about a
// million entries per trigram. Here each email seen at sign-in is kept once, in `login_emails` (a trigger adds it
// with the event), and the search finds the matching emails there first, then their events through the
// (email, event) index. SQLite searches `login_emails` with a trigram FTS5 table, PostgreSQL with a pg_trgm index;
// the per-event trigram table on SQLite goes. On PostgreSQL the sign-in counts move to triggers per statement
// (see pgStatementCounts).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

async function eventTrigramTable(db: AnyDb): Promise<void> {
  await sql`create virtual table login_events_search using fts5(email, tokenize = 'trigram')`.execute(db);
  await sql`insert into login_events_search (rowid, email) select id, email from login_events`.execute(db);
  await sql`create trigger login_events_search_insert after insert on login_events begin
    insert into login_events_search (rowid, email) values (new.id, new.email); end`.execute(db);
  await sql`create trigger login_events_search_delete after delete on login_events begin
    delete from login_events_search where rowid = old.id; end`.execute(db);
  await sql`create trigger login_events_search_update after update of email on login_events begin
    delete from login_events_search where rowid = old.id;
    insert into login_events_search (rowid, email) values (new.id, new.email); end`.execute(db);
}

async function dropEventTrigramTable(db: AnyDb): Promise<void> {
  for (const suffix of ['insert', 'delete', 'update'])
    await sql.raw(`drop trigger if exists login_events_search_${suffix}`).execute(db);
  await sql`drop table if exists login_events_search`.execute(db);
}

// PostgreSQL: the sign-in counts (row_counts, 2026_11_25_0001) were kept by a trigger per row. Many events written
// in one transaction (an import, the benchmark's seeding) then updated the same counter row thousands of times in
// one transaction, and each update walked the row's growing chain of versions: ten thousand events took minutes.
// Triggers per statement add each statement's events at once, from its transition table.
const COUNT_BY_STATEMENT = (table: 'inserted' | 'removed', sign: '' | '-') => `
  insert into row_counts (name, value)
    select 'login_events', ${sign}count(*) from ${table} having count(*) > 0
    union all
    select 'login_events:' || event, ${sign}count(*) from ${table} group by event
  on conflict (name) do update set value = row_counts.value + excluded.value`;

async function pgStatementCounts(db: AnyDb): Promise<void> {
  await sql`drop trigger if exists login_events_row_counts on login_events`.execute(db);
  await sql`drop function if exists login_events_row_counts()`.execute(db);
  await sql
    .raw(
      `create function login_events_counts_inserted() returns trigger language plpgsql as $$ begin ` +
        `${COUNT_BY_STATEMENT('inserted', '')}; return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function login_events_counts_removed() returns trigger language plpgsql as $$ begin ` +
        `${COUNT_BY_STATEMENT('removed', '-')}; return null; end $$`,
    )
    .execute(db);
  await sql`create trigger login_events_counts_inserted after insert on login_events
    referencing new table as inserted for each statement execute function login_events_counts_inserted()`.execute(db);
  await sql`create trigger login_events_counts_removed after delete on login_events
    referencing old table as removed for each statement execute function login_events_counts_removed()`.execute(db);
}

/** Back to the per-row trigger of 2026_11_25_0001. */
async function pgRowCounts(db: AnyDb): Promise<void> {
  await sql`drop trigger if exists login_events_counts_inserted on login_events`.execute(db);
  await sql`drop trigger if exists login_events_counts_removed on login_events`.execute(db);
  await sql`drop function if exists login_events_counts_inserted()`.execute(db);
  await sql`drop function if exists login_events_counts_removed()`.execute(db);
  await pgRowCountTrigger(db);
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('login_emails')
    .addColumn('email', 'text', (col) => col.primaryKey())
    .execute();
  await sql`insert into login_emails (email) select distinct email from login_events`.execute(db);

  if (isPostgres(db)) {
    await sql`create function login_emails_keep() returns trigger language plpgsql as $$ begin
      insert into login_emails (email) select distinct email from inserted on conflict do nothing; return null; end $$`.execute(
      db,
    );
    await sql`create trigger login_emails_keep after insert on login_events
      referencing new table as inserted for each statement execute function login_emails_keep()`.execute(db);
    const schema = await trigramSchema(db);
    // Without pg_trgm (2026_11_23_0801 could not create it) the search scans the emails, which is still far
    // smaller than the events.
    if (schema !== null)
      await sql`create index login_emails_trgm_idx on login_emails using gin ((lower(email)) ${sql.id(
        schema,
      )}.gin_trgm_ops)`.execute(db);
    await pgStatementCounts(db);
    return;
  }

  await sql`create virtual table login_emails_search using fts5(email, tokenize = 'trigram')`.execute(db);
  await sql`insert into login_emails_search (rowid, email) select rowid, email from login_emails`.execute(db);
  await sql`create trigger login_emails_keep after insert on login_events begin
    insert into login_emails (email) values (new.email) on conflict do nothing; end`.execute(db);
  await sql`create trigger login_emails_search_insert after insert on login_emails begin
    insert into login_emails_search (rowid, email) values (new.rowid, new.email); end`.execute(db);
  await dropEventTrigramTable(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists login_emails_keep on login_events`.execute(db);
    await sql`drop function if exists login_emails_keep()`.execute(db);
    await pgRowCounts(db);
  } else {
    await sql`drop trigger if exists login_emails_keep`.execute(db);
    await sql`drop trigger if exists login_emails_search_insert`.execute(db);
    await sql`drop table if exists login_emails_search`.execute(db);
    await eventTrigramTable(db);
  }
  await db.schema.dropTable('login_emails').execute();
}
