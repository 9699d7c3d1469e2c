import type { SqliteDatabase } from 'kysely';
import type { Db, DbOrTrx, Trx } from './database';

/**
 * A SQLite database has one connection per process, and Kysely hands it to one holder at a time: a
 * `connection()` or a transaction keeps it from its first query to its end, and everyone else waits. A statement
 * can then run on the connection straight away, without the promises, executors and connection hand-offs Kysely
 * wraps around every query (docs/operations.md, "Held connections"), in two cases:
 *
 * - from a Kysely instance handed out by `withConnection` or `withTransaction`, while their work runs: it holds
 *   the connection, so nothing else can use it meanwhile;
 * - from the database itself while nobody holds the connection: the statement runs to its end before anyone
 *   else's code does, so it cannot land inside someone else's transaction.
 *
 * Reusable queries (reusable-query.ts) take this way; anything else, and every PostgreSQL instance, goes through
 * Kysely. A held connection runs one thing at a time: work that starts a transaction on it awaits the
 * transaction before it queries the connection again (as Kysely itself requires).
 */
interface SqliteConnection {
  database: SqliteDatabase;
  /** Nobody holds the connection now. */
  idle: () => boolean;
}

const sqliteOfRoot = new WeakMap<Db, SqliteConnection>();
const heldBy = new WeakMap<DbOrTrx, SqliteDatabase>();

/** Called once by openDatabase for a SQLite database: its statements, and whether anyone holds it now. */
export function registerSqliteConnection(db: Db, database: SqliteDatabase, idle: () => boolean): void {
  sqliteOfRoot.set(db, { database, idle });
}

/** The SQLite database a statement from `db` may run on straight away; undefined when it must go through Kysely. */
export function directSqlite(db: DbOrTrx): SqliteDatabase | undefined {
  const held = heldBy.get(db);
  if (held) return held;
  const root = sqliteOfRoot.get(db as Db);
  return root?.idle() ? root.database : undefined;
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
  return db.connection().execute((connection) => holding(sqliteOfRoot.get(db)?.database, connection, work));
}

/** Runs `work` in a transaction on `db` (the database or a connection held by withConnection). */
export function withTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  const sqlite = heldBy.get(db) ?? sqliteOfRoot.get(db)?.database;
  return db.transaction().execute((trx) => holding(sqlite, trx, work));
}
