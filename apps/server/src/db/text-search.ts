import { sql, type Expression, type SqlBool } from 'kysely';
import { containsIgnoringCase } from './contains';
import { isPostgresDb, type DbOrTrx } from './database';

/**
 * The searched columns that have a trigram index on SQLite (migration 2026_11_25_0001): the FTS5 table, the key
 * it holds of each row, and the column's name in it. PostgreSQL serves the same searches with pg_trgm indexes.
 * The audit log's index holds each entry's id negated (`-rowid`, migration 2026_11_26_0600), so that reading it
 * forwards, which stops at a page, gives the newest entries first.
 */
const SQLITE_SEARCH = {
  'login_emails.email': { fts: 'login_emails_search', key: 'rowid', column: 'email' },
  'audit_log.actor': { fts: 'audit_log_search', key: '-rowid', column: 'actor' },
  'audit_log.action': { fts: 'audit_log_search', key: '-rowid', column: 'action' },
  'audit_log.details': { fts: 'audit_log_search', key: '-rowid', column: 'details' },
  'audit_log.screen': { fts: 'audit_log_search', key: '-rowid', column: 'screen' },
  'users.email': { fts: 'users_search', key: 'id', column: 'email' },
  'users.full_name': { fts: 'users_search', key: 'id', column: 'full_name' },
  'users.designation': { fts: 'users_search', key: 'id', column: 'designation' },
  // 2026_11_26_0300: the programmes lists and pickers.
  'cohorts.name': { fts: 'cohorts_search', key: 'id', column: 'name' },
  'learning_paths.name': { fts: 'learning_paths_search', key: 'id', column: 'name' },
  'scenarios.name': { fts: 'scenarios_search', key: 'id', column: 'name' },
} as const satisfies Record<string, { fts: string; key: 'rowid' | '-rowid' | 'id'; column: string }>;

export type SearchedColumn = keyof typeof SQLITE_SEARCH;

/** The key of each row an FTS table holds, as the source table has it (see SQLITE_SEARCH). */
function keyInIndex(fts: string, key: 'rowid' | '-rowid' | 'id') {
  return key === '-rowid' ? sql`-${sql.ref(`${fts}.rowid`)}` : sql.ref(`${fts}.${key}`);
}

/** An FTS table's rows in the order of their keys: on its own column, so the index reads its lists that way. */
function keyOrder(fts: string, key: 'rowid' | '-rowid' | 'id', dir: 'asc' | 'desc') {
  if (key !== '-rowid') return sql`${sql.ref(`${fts}.${key}`)} ${sql.raw(dir)}`;
  return sql`${sql.ref(`${fts}.rowid`)} ${sql.raw(dir === 'asc' ? 'desc' : 'asc')}`;
}

/**
 * An FTS5 query for the rows where any of the columns holds the text: a phrase, its quotes doubled, under a column
 * set. One phrase over several columns reads each trigram's list of rows once, where one phrase per column ORed
 * together would read it once per column.
 */
const phraseOf = (searched: readonly SearchedColumn[], text: string) =>
  `{${searched.map((column) => SQLITE_SEARCH[column].column).join(' ')}} : "${text.replace(/"/g, '""')}"`;

/** The FTS5 query of a row holding every text (each in its column) or any (one text in any of its columns). */
function matchOf(searches: readonly { column: SearchedColumn; text: string }[], holding: 'every' | 'any'): string {
  if (holding === 'every') return searches.map(({ column, text }) => phraseOf([column], text)).join(' AND ');
  const columnsByText = new Map<string, SearchedColumn[]>();
  for (const { column, text } of searches) columnsByText.set(text, [...(columnsByText.get(text) ?? []), column]);
  return [...columnsByText].map(([text, columns]) => phraseOf(columns, text)).join(' OR ');
}

/** A trigram index finds nothing shorter than three characters: such searches scan, as before. */
const TRIGRAM = 3;

/**
 * "Contains, ignoring case" on a searched column (docs/operations.md, "Searching and counting"). On SQLite a
 * search of three characters or more first narrows the rows to the trigram index's matches (a phrase query
 * matches exactly the rows holding the text), then keeps the same LIKE test as everywhere, so both databases and
 * both paths answer alike. `key` is the row's key in the query (`login_events.id`, `users.id`...).
 */
export function containsText(
  db: DbOrTrx,
  searched: SearchedColumn,
  key: Expression<unknown>,
  value: Expression<unknown>,
  text: string,
): Expression<SqlBool> {
  const like = containsIgnoringCase(value, text);
  if (isPostgresDb(db) || [...text].length < TRIGRAM) return like;
  const { fts, key: ftsKey } = SQLITE_SEARCH[searched];
  const phrase = phraseOf([searched], text);
  return sql<SqlBool>`(${key} in (select ${keyInIndex(fts, ftsKey)} from ${sql.raw(fts)} where ${sql.raw(fts)} match ${phrase}) and ${like})`;
}

/** What matchesThroughSearchIndex reads: see there. */
export interface IndexedSearch<V> {
  /** The table searched, and its rows' key (`audit_log.id`), which the index holds. */
  table: string;
  key: Expression<unknown>;
  /** What to read of each matching row (often the key). */
  value: Expression<V>;
  searches: { column: SearchedColumn; text: string }[];
  /** Every condition a row must meet, the searches' own LIKE tests included. */
  conditions: Expression<SqlBool>[];
  limit: number;
  /** A row holds every text (one per column, as the audit log's filters) or any (one text in several columns). */
  holding?: 'every' | 'any';
  /**
   * Rows in the order of their keys, skipping `offset` of them, read from the index in that order: cheap in the
   * order the index holds its keys (ascending `rowid`, so the audit log's newest first), while the other way
   * first loads the whole list of each of the text's trigrams.
   */
  inKeyOrder?: { dir: 'asc' | 'desc'; offset: number };
}

/**
 * On SQLite, up to `limit` rows matching `conditions` that hold the searched texts, read from the trigram index:
 * its matches are taken one by one and joined to their rows, stopping at `limit`, where `key in (matches)` would
 * first collect every match (for a common text, most of the table). Several texts are one index query. Null on
 * PostgreSQL or when a text is too short for the index: the caller then reads the table. The index only finds
 * the candidates; the same LIKE as everywhere (in `conditions`) decides.
 */
export async function matchesThroughSearchIndex<V>(db: DbOrTrx, search: IndexedSearch<V>): Promise<V[] | null> {
  const { table, key, value, searches, conditions, limit, holding = 'every', inKeyOrder } = search;
  const indexed = searches.filter(({ text }) => [...text].length >= TRIGRAM);
  // A row holding any text may hold only one too short for the index: the index would miss it.
  if (isPostgresDb(db) || indexed.length === 0 || (holding === 'any' && indexed.length < searches.length)) return null;
  const { fts, key: ftsKey } = SQLITE_SEARCH[indexed[0]!.column];
  if (indexed.some(({ column }) => SQLITE_SEARCH[column].fts !== fts)) return null;
  const match = matchOf(indexed, holding);
  const { rows } = await sql<{ value: V }>`select ${value} as value
    from ${sql.table(fts)} join ${sql.table(table)} on ${key} = ${keyInIndex(fts, ftsKey)}
    where ${sql.table(fts)} match ${match} and ${sql.join(conditions, sql` and `)}
    ${inKeyOrder ? sql`order by ${keyOrder(fts, ftsKey, inKeyOrder.dir)}` : sql``}
    limit ${limit} ${inKeyOrder ? sql`offset ${inKeyOrder.offset}` : sql``}`.execute(db);
  return rows.map((row) => row.value);
}
