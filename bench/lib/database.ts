import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Dialect } from '../../apps/server/src/db/database';
import { PG_ADMIN_URL, tempDir } from './env';

/** A database of the benchmark's own: a SQLite file in a temp dir, or a fresh PostgreSQL database. */
export interface BenchDatabase {
  dialect: Dialect;
  /** The environment that points the server at it (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
  /** The SQLite file (SQLite only). */
  sqliteFile: string | null;
  /** The postgres:// URL (PostgreSQL only). */
  databaseUrl: string | null;
  /** Opens it with the app's own code (and migrates it when asked). */
  open(options?: { migrate?: boolean; pgPoolSize?: number }): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

export async function postgresAvailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const result = await client.query<{ server_version: string }>('show server_version');
    return result.rows[0]?.server_version ?? 'unknown';
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(dialect: Dialect, label: string): Promise<BenchDatabase> {
  if (dialect === 'postgres') {
    const name = `bench_${label.replace(/[^a-z0-9]/g, '')}_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    return {
      dialect,
      env: { DATABASE_URL: databaseUrl, DATA_DIR: tempDir(`${label}-pgdata`) },
      sqliteFile: null,
      databaseUrl,
      async open({ migrate = true, pgPoolSize = 10 } = {}) {
        const handle = openDatabase({ databaseUrl, pgPoolSize });
        if (migrate) await migrateToLatest(handle.db);
        return handle;
      },
      async drop() {
        await adminQuery(`drop database if exists ${name} with (force)`);
      },
    };
  }
  const dataDir = tempDir(label);
  const sqliteFile = path.join(dataDir, 'tradecraft.db');
  return {
    dialect,
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    sqliteFile,
    databaseUrl: null,
    async open({ migrate = true } = {}) {
      const handle = openDatabase({ sqliteFile });
      if (migrate) await migrateToLatest(handle.db);
      return handle;
    },
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
