import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { buildApp } from '../src/app';
import { nowIso } from '../src/clock';
import { loadConfig, type Config } from '../src/config';
import { migrateToLatest, openDatabase, type Db, type Dialect } from '../src/db/database';
import type { User } from '../src/db/schema';
import { hashPassword } from '../src/features/auth/passwords';
import { SESSION_COOKIE } from '../src/plugins/sessions.repository';

export const ORIGIN = 'http://localhost:8080';
export const PASSWORD = 'Str0ng!Pass';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  dialect: Dialect;
  config: Config;
  /** app.inject() as a same-origin browser would call: JSON body, Origin header, optional session cookie. */
  request(options: TestRequest): Promise<LightMyRequestResponse>;
  /** The database file on SQLite (undefined on PostgreSQL), for tests that open a second connection. */
  sqliteFile: string | undefined;
  /** A user straight in the database (no API), with PASSWORD unless given. */
  createUser(overrides?: Partial<User> & { password?: string }): Promise<User>;
  /** Signs in through the API and returns the session cookie value. */
  signIn(email: string, password?: string): Promise<string>;
  /** A user of that role, signed in. */
  userWithSession(role: User['role'], overrides?: Partial<User>): Promise<{ user: User; cookie: string }>;
  close(): Promise<void>;
}

export interface TestRequest {
  method: InjectOptions['method'];
  url: string;
  body?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
}

export const usingPostgres = (): boolean => Boolean(process.env.TEST_DATABASE_URL);

const hashes = new Map<string, Promise<string>>();
const cachedHash = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
};

let userCounter = 0;

/** Answers whose status the route's operation in the OpenAPI document does not declare, not yet reported. */
const undeclaredStatuses: string[] = [];

/**
 * Records every /api answer whose status its operation does not declare, so the document cannot drift from
 * what the routes do. The setup file fails the test that caused one (and close() whatever is left).
 */
function watchDeclaredStatuses(app: FastifyInstance): void {
  let declared: Map<string, Set<string>> | undefined;
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/') || request.method === 'HEAD') return;
    declared ??= declaredStatusesOf(
      app.swagger() as { paths?: Record<string, Record<string, { responses?: object }>> },
    );
    const operation = `${request.method} ${route.replace(/:(\w+)/g, '{$1}')}`;
    const statuses = declared.get(operation);
    if (statuses && !statuses.has(String(reply.statusCode))) {
      undeclaredStatuses.push(`${operation} answered ${reply.statusCode}, which its operation does not declare`);
    }
  });
}

function declaredStatusesOf(document: {
  paths?: Record<string, Record<string, { responses?: object }>>;
}): Map<string, Set<string>> {
  const declared = new Map<string, Set<string>>();
  for (const [url, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      declared.set(`${method.toUpperCase()} ${url}`, new Set(Object.keys(operation.responses ?? {})));
    }
  }
  return declared;
}

/** The first sheet of an XLSX download, each row as its cells' text. */
export async function xlsxRows(response: LightMyRequestResponse): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0]!.eachRow((row) => {
    const values = row.values as unknown[]; // 1-based, with holes for empty cells
    rows.push(Array.from({ length: values.length - 1 }, (_, index) => String(values[index + 1] ?? '')));
  });
  return rows;
}

/** Statuses the current test causes on purpose (a 500 from a database it broke), forgotten after the test. */
const allowedStatuses = new Set<number>();

/** Lets the current test make routes answer this status without failing the declared-status check. */
export function allowUndeclaredStatus(status: number): void {
  allowedStatuses.add(status);
}

/** Throws (and forgets them) when any answer so far had an undeclared status that the test did not allow. */
export function assertDeclaredStatuses(): void {
  const found = undeclaredStatuses
    .splice(0)
    .filter((entry) => ![...allowedStatuses].some((status) => entry.includes(` answered ${status},`)));
  allowedStatuses.clear();
  if (found.length > 0) throw new Error(`Undeclared response status:\n  ${[...new Set(found)].join('\n  ')}`);
}

/**
 * Migrates a test database. Test files run in parallel, each in its own PostgreSQL schema that it drops when done;
 * the migrator's look at the catalogue spans every schema and fails with "schema ... does not exist" (3F000) when
 * another file drops its schema at that moment. That is a race between test files, not a fault: try again.
 */
async function migrateWhileOthersDropSchemas(db: Db, pgSchema: string | undefined): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await migrateToLatest(db, pgSchema);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!pgSchema || code !== '3F000' || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** A freshly migrated database of its own (a SQLite file, or a PostgreSQL schema) and the app on it. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { sqliteBusyTimeoutMs?: number } = {},
): Promise<TestApp> {
  const config = loadConfig({
    PUBLIC_ORIGIN: ORIGIN,
    WEB_DIST_DIR: path.join(os.tmpdir(), 'tradecraft-no-web'),
    ...env,
  });
  let cleanup: () => Promise<void>;
  let handle: ReturnType<typeof openDatabase>;
  let pgSchema: string | undefined;
  let sqliteFile: string | undefined;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl) {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    handle = openDatabase({ databaseUrl, pgSchema: schema, pgPoolSize: 5 });
    pgSchema = schema;
    cleanup = async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-test-'));
    handle = openDatabase({ sqliteFile: path.join(dir, 'test.db'), ...options });
    sqliteFile = path.join(dir, 'test.db');
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const { db, dialect } = handle;
  try {
    await migrateWhileOthersDropSchemas(db, pgSchema);
  } catch (error) {
    await db.destroy();
    await cleanup();
    throw error;
  }
  const app = await buildApp({ config, db, dialect });
  watchDeclaredStatuses(app);
  await app.ready();

  const request = ({ method, url, body, cookie, headers = {} }: TestRequest) =>
    app.inject({
      method,
      url,
      headers: {
        origin: ORIGIN,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });

  const createUser: TestApp['createUser'] = async ({ password = PASSWORD, ...overrides } = {}) => {
    userCounter += 1;
    const now = nowIso();
    const user: User = {
      id: `user-${process.pid}-${userCounter}-${randomBytes(3).toString('hex')}`,
      email: `user${userCounter}-${randomBytes(3).toString('hex')}@example.com`,
      password_hash: await cachedHash(password),
      first_name: 'Test',
      last_name: `User ${userCounter}`,
      designation: 'Analyst',
      role: 'student',
      disabled: 0,
      failed_attempts: 0,
      locked_until: null,
      must_change_password: 0,
      second_step_failures: 0,
      second_step_failed_at: null,
      photo_file_id: null,
      created_at: now,
      updated_at: now,
      ...overrides,
    };
    await db.insertInto('users').values(user).execute();
    return user;
  };

  const signIn: TestApp['signIn'] = async (email, password = PASSWORD) => {
    const response = await request({ method: 'POST', url: '/api/auth/login', body: { email, password } });
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
    if (response.statusCode !== 200 || !cookie) {
      throw new Error(`sign-in of ${email} failed: ${response.statusCode} ${response.body}`);
    }
    return cookie.value;
  };

  return {
    app,
    db,
    dialect,
    config,
    sqliteFile,
    request,
    createUser,
    signIn,
    async userWithSession(role, overrides = {}) {
      const user = await createUser({ role, ...overrides });
      return { user, cookie: await signIn(user.email) };
    },
    async close() {
      await app.close();
      assertDeclaredStatuses();
      await db.destroy().catch(() => undefined); // a test may have destroyed it on purpose
      await cleanup();
    },
  };
}
