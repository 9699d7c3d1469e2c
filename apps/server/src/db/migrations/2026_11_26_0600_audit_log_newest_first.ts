import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// SQLite only (docs/operations.md, "Searching and counting"). A search of the audit log sorted by time read every
// match to sort them, so a text found a few thousand times (all long ago) cost ten times as much in a log ten
// times as long. The newest matches can come straight from the trigram index, if two things hold:
//
// 1. The index hands out its matches newest first. FTS5 reads its lists in key order cheaply and stops at a page,
//    but backwards it first loads every list the text's trigrams have. `audit_log_search` is therefore rebuilt
//    keyed by the entry's id negated: its ascending order is the log's newest first.
// 2. Key order is time order. Entries are written with the time they happened, one writer at a time, so it is
//    nearly always true; `audit_log_time_order` (one row) says from which id on it is sure: `in_order_from` is
//    the key after the last entry that was written with a time before one already in the log (a clock set back,
//    an import of old entries), `latest_at` the latest time written so far. Every entry from `in_order_from` on
//    is in time order and no earlier than any entry before it. A trigger keeps both as entries are written.
//
// PostgreSQL's trigram indexes give their matches unordered, so there is nothing to gain there: no change.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const COLUMNS = ['actor', 'action', 'details', 'screen'];
const columns = (row: string) => COLUMNS.map((column) => `${row}.${column}`).join(', ');

/** The audit log's FTS5 table and the triggers keeping it, keyed by `key` (`id` or `-id`) of each entry. */
async function searchTable(db: AnyDb, key: (row: string) => string): Promise<void> {
  const names = `rowid, ${COLUMNS.join(', ')}`;
  const values = (row: string) => `${key(row)}, ${columns(row)}`;
  await sql
    .raw(`create virtual table audit_log_search using fts5(${COLUMNS.join(', ')}, tokenize = 'trigram')`)
    .execute(db);
  await sql.raw(`insert into audit_log_search (${names}) select ${values('audit_log')} from audit_log`).execute(db);
  await sql
    .raw(
      `create trigger audit_log_search_insert after insert on audit_log begin ` +
        `insert into audit_log_search (${names}) values (${values('new')}); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger audit_log_search_delete after delete on audit_log begin ` +
        `delete from audit_log_search where rowid = ${key('old')}; end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger audit_log_search_update after update of ${COLUMNS.join(', ')} on audit_log begin ` +
        `delete from audit_log_search where rowid = ${key('old')}; ` +
        `insert into audit_log_search (${names}) values (${values('new')}); end`,
    )
    .execute(db);
}

async function dropSearchTable(db: AnyDb): Promise<void> {
  for (const change of ['insert', 'delete', 'update'])
    await sql.raw(`drop trigger if exists audit_log_search_${change}`).execute(db);
  await sql.raw('drop table if exists audit_log_search').execute(db);
}

/**
 * Whether a written entry keeps the log in time order: it is the newest key and no earlier than the latest time.
 * Otherwise the ordered part starts after the newest key. A changed time or key counts as written.
 */
const keepOrder = (row: string) =>
  `update audit_log_time_order set ` +
  `in_order_from = case when ${row}.at >= latest_at and ${row}.id >= (select max(id) from audit_log) ` +
  `then in_order_from else (select max(id) from audit_log) + 1 end, ` +
  `latest_at = max(latest_at, ${row}.at)`;

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return;
  await dropSearchTable(db);
  await searchTable(db, (row) => `-${row}.id`);

  await db.schema
    .createTable('audit_log_time_order')
    .addColumn('in_order_from', 'integer', (col) => col.notNull())
    .addColumn('latest_at', 'text', (col) => col.notNull())
    .execute();
  // The log as it stands: in order after the last entry earlier than one before it.
  await sql`insert into audit_log_time_order (in_order_from, latest_at)
    select coalesce((select max(id) + 1 from (
        select id, at < max(at) over (order by id rows between unbounded preceding and 1 preceding) as early
        from audit_log) where early), 0),
      coalesce((select max(at) from audit_log), '')`.execute(db);
  await sql
    .raw(`create trigger audit_log_time_order_insert after insert on audit_log begin ${keepOrder('new')}; end`)
    .execute(db);
  await sql
    .raw(
      `create trigger audit_log_time_order_update after update of id, at on audit_log begin ${keepOrder('new')}; end`,
    )
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql.raw('drop trigger if exists audit_log_time_order_insert').execute(db);
  await sql.raw('drop trigger if exists audit_log_time_order_update').execute(db);
  await db.schema.dropTable('audit_log_time_order').ifExists().execute();
  await dropSearchTable(db);
  await searchTable(db, (row) => `${row}.id`);
}
