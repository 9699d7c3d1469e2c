import fs from 'node:fs';
import path from 'node:path';
import SQLite, { type BetterSqlite3 } from './sqlite-driver';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import { migrations } from './migrations';
import type { Database } from './schema';
import { BoundedMap } from '../bounded-map';
import { registerSqliteConnection } from './held-connection';
import { preparedStatementName } from './reusable-query';

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Either the database or an open transaction: services accept both. */
export type DbOrTrx = Db | Trx;

export type Dialect = 'sqlite' | 'postgres';

// COUNT(*) and other int8 results arrive as strings from pg; every count here fits in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface DatabaseOptions {
  /** A postgres:// URL, or undefined for the SQLite file in dataDir. */
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** An exact SQLite file path (tests); wins over dataDir. */
  sqliteFile?: string;
  /** PostgreSQL schema to use as search_path (tests run each file in its own schema). */
  pgSchema?: string;
  /** How long a SQLite write waits for another process's write lock before failing (tests shorten it). */
  sqliteBusyTimeoutMs?: number;
  pgPoolSize?: number;
}

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Where the data lives, for the start-up log (never includes a password). */
  location: string;
}

/** The SQLite file of a data directory. */
export const sqliteFileIn = (dataDir: string): string => path.join(dataDir, 'tradecraft.db');

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.pgPoolSize ?? 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const url = new URL(options.databaseUrl);
    url.password = '';
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) }),
      dialect: 'postgres',
      location: url.toString(),
    };
  }
  const file = options.sqliteFile ?? sqliteFileIn(options.dataDir ?? './data');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${options.sqliteBusyTimeoutMs ?? 5000}`);
  const database = withStatementCache(sqlite);
  const connection = { holders: 0 };
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }, connection) });
  registerSqliteConnection(db, database, () => connection.holders === 0);
  return {
    db,
    dialect: 'sqlite',
    location: path.resolve(file),
  };
}

/** PostgreSQL's answer when a prepared statement's result columns changed under it (a migration by another server). */
const RESULT_TYPE_CHANGED = '0A000';

/**
 * Runs the reusable queries (reusable-query.ts) as named prepared statements: PostgreSQL parses and plans each
 * once per connection, and the driver sends only its parameters after that. On the answer path this is most of
 * the database's work per request (docs/operations.md, "Prepared statements").
 *
 * A migration that changes a table's columns (another server starting on a newer version) makes PostgreSQL
 * refuse the statements prepared before it ("cached plan must not change result type"): the connection then
 * prepares them again under new names, and a query outside a transaction is retried once.
 */
function preparingPool(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let generation = 0;
    let inTransaction = false;
    const run = (text: string, values: unknown[]) => {
      const name = preparedStatementName(text);
      return name === undefined
        ? client.query(text, values)
        : client.query({ name: generation === 0 ? name : `${name}_${generation}`, text, values });
    };
    const query = async (text: string, parameters: readonly unknown[]) => {
      const values = [...parameters];
      // Kysely begins with BEGIN or START TRANSACTION and ends with COMMIT or ROLLBACK (not ROLLBACK TO a savepoint).
      if (/^(begin|start)\b/i.test(text)) inTransaction = true;
      else if (/^(commit|rollback)\b(?!\s+to\b)/i.test(text)) inTransaction = false;
      try {
        return await run(text, values);
      } catch (error) {
        if ((error as { code?: unknown }).code !== RESULT_TYPE_CHANGED || preparedStatementName(text) === undefined)
          throw error;
        generation += 1;
        if (inTransaction) throw error;
        return await run(text, values);
      }
    };
    // Kysely calls query(cursor) only to stream with a cursor class, which this dialect is not given.
    return { query, release: () => client.release() } as unknown as PostgresPoolClient;
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = wrap(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE), waiting up to the busy timeout for
 * another process (an admin command, a backup) to finish. A deferred transaction that reads and then writes
 * would instead fail at once with SQLITE_BUSY when another writer committed in between: the busy timeout
 * cannot help a read snapshot that has gone stale.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #connection: { holders: number };

  /** `connection.holders` counts who holds the one connection (0 or 1): held-connection.ts reads it. */
  constructor(config: SqliteDialectConfig, connection: { holders: number }) {
    super(config);
    this.#config = config;
    this.#connection = connection;
  }

  override createDriver(): Driver {
    const held = this.#connection;
    return new (class extends SqliteDriver {
      override async acquireConnection(): Promise<DatabaseConnection> {
        const connection = await super.acquireConnection();
        held.holders += 1;
        return connection;
      }

      override async releaseConnection(): Promise<void> {
        held.holders -= 1;
        await super.releaseConnection();
      }

      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })(this.#config);
  }
}

/** How many prepared statements a SQLite connection keeps (the app runs far fewer distinct queries). */
const STATEMENTS_KEPT = 500;

/**
 * Kysely prepares every query afresh, and preparing costs about as much as running a small query; the same
 * SQL text gets the same prepared statement back (least recently used dropped first). A statement still
 * iterating a result is never handed out twice.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const statements = new BoundedMap<string, BetterSqlite3.Statement>(STATEMENTS_KEPT);
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const kept = statements.get(text);
      if (kept && !kept.busy) {
        statements.delete(text);
        statements.set(text, kept);
        return kept;
      }
      const statement = sqlite.prepare(text);
      if (!kept) {
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * Runs every migration that has not run yet; throws with the failing migration's error. With a PostgreSQL
 * schema the bookkeeping tables live in it too (Kysely would otherwise find another schema's tables).
 * On PostgreSQL the whole run holds an advisory lock, so servers starting together on one empty database
 * migrate one after the other (the later ones find nothing left to do) instead of racing to create tables.
 */
export async function migrateToLatest(db: Db, pgSchema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const migrate = async () => {
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  };
  if (!isPostgresDb(db)) return migrate();
  return db.connection().execute(async (connection) => {
    const key = sql`hashtext(${'tradecraft:migrate:'} || current_schema())`;
    await sql`select pg_advisory_lock(${key})`.execute(connection);
    try {
      return await migrate();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}

export const isPostgresDb = (db: DbOrTrx): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Serialises what follows in this transaction with every other transaction taking the same lock, in any
 * server process (PostgreSQL: an advisory lock released at commit). SQLite runs one write transaction at
 * a time already, so there it does nothing.
 */
export async function takeTransactionLock(trx: Trx, name: string): Promise<void> {
  if (!isPostgresDb(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${`tradecraft:${name}:`} || current_schema()))`.execute(trx);
}

export async function isDatabaseReachable(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
