import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openDatabase, type Db } from '../src/db/database';

export interface FreshDatabase {
  /** The environment that points a server process at it. */
  env: Record<string, string>;
  url: string;
  /** A pool on it, migrated unless told otherwise. */
  open(options?: { migrate?: boolean }): Promise<{ db: Db; close(): Promise<void> }>;
  drop(): Promise<void>;
}

/**
 * An empty PostgreSQL database of its own (not a schema), for tests that start real server processes: they
 * use the database exactly as configured, with no search_path of their own.
 */
export async function freshPostgresDatabase(label: string): Promise<FreshDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `tc_${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // CREATE DATABASE copies template1 and fails while another session uses it (another test creating one).
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt === 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    async open({ migrate = true } = {}) {
      const { db } = openDatabase({ databaseUrl: url.toString(), pgPoolSize: 3 });
      if (migrate) await migrateToLatest(db);
      return { db, close: () => db.destroy() };
    },
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
