import { sql, type Expression, type SqlBool } from 'kysely';
import { containsIgnoringCase } from './contains';
import { isPostgresDb, type DbOrTrx } from './database';

/**
 * The searched columns that have a trigram index on SQLite (migration 2026_11_25_0001): the FTS5 table, the key
 * it holds of each row, and the column's name in it. PostgreSQL serves the same searches with pg_trgm indexes.
 */
const SQLITE_SEARCH = {
  'login_emails.email': { fts: 'login_emails_search', key: 'rowid', column: 'email' },
  'audit_log.actor': { fts: 'audit_log_search', key: 'rowid', column: 'actor' },
  'audit_log.action': { fts: 'audit_log_search', key: 'rowid', column: 'action' },
  'audit_log.details': { fts: 'audit_log_search', key: 'rowid', column: 'details' },
  'audit_log.screen': { fts: 'audit_log_search', key: 'rowid', column: 'screen' },
  'users.email': { fts: 'users_search', key: 'id', column: 'email' },
  'users.full_name': { fts: 'users_search', key: 'id', column: 'full_name' },
  'users.designation': { fts: 'users_search', key: 'id', column: 'designation' },
} as const;

export type SearchedColumn = keyof typeof SQLITE_SEARCH;

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
  const { fts, key: ftsKey, column } = SQLITE_SEARCH[searched];
  const phrase = `${column} : "${text.replace(/"/g, '""')}"`;
  return sql<SqlBool>`(${key} in (select ${sql.raw(ftsKey)} from ${sql.raw(fts)} where ${sql.raw(fts)} match ${phrase}) and ${like})`;
}
