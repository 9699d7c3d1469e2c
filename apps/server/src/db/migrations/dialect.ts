import { PostgresAdapter, type Kysely } from 'kysely';

// Migrations are frozen in time, so they share only this one dialect switch and nothing from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-assigned integer primary key: SQLite's INTEGER PRIMARY KEY is the rowid; PostgreSQL needs serial. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function serialType(db: Kysely<any>): 'serial' | 'integer' {
  return isPostgres(db) ? 'serial' : 'integer';
}
