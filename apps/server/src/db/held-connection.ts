import type { SqliteDatabase } from 'kysely';
import type { Db, DbOrTrx, Trx } from './database';

/**
 * A SQLite database has one connection per process, and Kysely hands it to one holder at a time: a
 * `connection()` or a transaction keeps it from its first query to its end, and everyone else waits. While a
 * holder runs, nothing else can use the connection, so a statement can run on it straight away, without the
 * promises, executors and connection hand-offs Kysely wraps around every query (a few per cent of an answer's CPU
 * time: docs/operations.md, "Held connections"). Reusable queries (reusable-query.ts) do that for the Kysely
 * instances handed out by `withConnection` and `withTransaction` while their work runs; every other instance,
 * and every PostgreSQL one, goes through Kysely as before.
 *
 * A held connection runs one thing at a time: work that starts a transaction on it awaits the transaction
 * before it queries the connection again (as Kysely itself requires).
 */
const sqliteOfRoot = new WeakMap<Db, SqliteDatabase>();
const heldBy = new WeakMap<DbOrTrx, SqliteDatabase>();

/** Called once by openDatabase for a SQLite database: its statements, for the instances that hold it. */
export function registerSqliteConnection(db: Db, database: SqliteDatabase): void {
  sqliteOfRoot.set(db, database);
}

/** The SQLite database a held instance may run statements on directly; undefined for any other instance. */
export function heldSqlite(db: DbOrTrx): SqliteDatabase | undefined {
  return heldBy.get(db);
}

async function holding<T, H extends DbOrTrx>(
  sqlite: SqliteDatabase | undefined,
  holder: H,
  work: (holder: H) => Promise<T>,
): Promise<T> {
  if (!sqlite) return work(holder);
  heldBy.set(holder, sqlite);
  try {
    return await work(holder);
  } finally {
    heldBy.delete(holder);
  }
}

/** Runs `work` on one connection held from its first query to its end (on PostgreSQL: one pool connection). */
export function withConnection<T>(db: Db, work: (connection: Db) => Promise<T>): Promise<T> {
  return db.connection().execute((connection) => holding(sqliteOfRoot.get(db), connection, work));
}

/** Runs `work` in a transaction on `db` (the database or a connection held by withConnection). */
export function withTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  const sqlite = heldBy.get(db) ?? sqliteOfRoot.get(db);
  return db.transaction().execute((trx) => holding(sqlite, trx, work));
}
