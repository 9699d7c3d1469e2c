import { execFile, spawn } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, usingPostgres, type TestApp } from '../test/helper';
import { AccountRecoveryError, ensureAdmin, resetPassword, unlockAccount } from './bootstrap';
import { verifyPassword } from './features/auth/passwords';
import { freshPostgresDatabase } from '../test/fresh-database';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const admins = () => t.db.selectFrom('users').selectAll().where('role', '=', 'admin').execute();
const audit = () =>
  t.db.selectFrom('audit_log').select(['actor', 'action', 'details', 'screen']).orderBy('id').execute();
const NEW_PASSWORD = 'Recovered!Pass9';

describe('the first admin', () => {
  it('is created once with a generated password, audited; later starts do nothing', async () => {
    const created = await ensureAdmin(t.db, {});
    expect(created).toMatchObject({ email: 'admin@localhost', action: 'created' });
    const [admin] = await admins();
    expect(await verifyPassword(admin!.password_hash, created!.generatedPassword!)).toBe(true);
    expect(await ensureAdmin(t.db, {})).toBeNull();
    expect(await admins()).toHaveLength(1);
    expect(await audit()).toEqual([
      { actor: null, action: 'create admin', details: 'Created the first admin admin@localhost', screen: 'Start-up' },
    ]);
  });

  it('is created exactly once when several starts race on one database', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => ensureAdmin(t.db, {})));
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect(await admins()).toHaveLength(1);
  });
});

describe('the generated first-admin password', () => {
  const signIn = (email: string, password: string) =>
    t.request({ method: 'POST', url: '/api/auth/login', body: { email, password } });
  const cookieOf = (response: Awaited<ReturnType<typeof signIn>>) =>
    response.cookies.find((cookie) => cookie.name === 'tc_session')?.value;

  it('signs in to a session that may only choose a new password: other routes answer 403', async () => {
    const { generatedPassword } = (await ensureAdmin(t.db, {}))!;
    const signedIn = await signIn('admin@localhost', generatedPassword!);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user).toMatchObject({ email: 'admin@localhost', mustChangePassword: true });
    const cookie = cookieOf(signedIn)!;
    for (const url of ['/api/users', '/api/notifications', '/api/profile', '/api/sim/list']) {
      const refused = await t.request({ method: 'GET', url, cookie });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json(), url).toEqual({ error: 'Choose a new password before continuing.' });
    }
    const me = await t.request({ method: 'GET', url: '/api/auth/me', cookie });
    expect(me.json().user.mustChangePassword).toBe(true);
  });

  it('stops signing in once a new one is chosen, and the account is then free', async () => {
    const { generatedPassword } = (await ensureAdmin(t.db, {}))!;
    const cookie = cookieOf(await signIn('admin@localhost', generatedPassword!))!;
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/password',
      body: { currentPassword: generatedPassword, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      cookie,
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.cookies.find((item) => item.name === 'tc_session')!.value;
    expect((await t.request({ method: 'GET', url: '/api/users', cookie: fresh })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: fresh })).json().user).not.toHaveProperty(
      'mustChangePassword',
    );
    expect((await signIn('admin@localhost', generatedPassword!)).statusCode).toBe(401);
    expect((await signIn('admin@localhost', NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('cannot be chosen again as the new password', async () => {
    const { generatedPassword } = (await ensureAdmin(t.db, {}))!;
    const cookie = cookieOf(await signIn('admin@localhost', generatedPassword!))!;
    const same = await t.request({
      method: 'POST',
      url: '/api/auth/password',
      body: { currentPassword: generatedPassword, newPassword: generatedPassword, confirmPassword: generatedPassword },
      cookie,
    });
    expect(same.statusCode).toBe(400);
    expect(JSON.stringify(same.json())).toContain('Choose a password other than your current one.');
    expect((await t.request({ method: 'GET', url: '/api/users', cookie })).statusCode).toBe(403);
  });

  it('is not forced on a password the operator set with ADMIN_PASSWORD', async () => {
    await ensureAdmin(t.db, { email: 'lead@example.com', password: NEW_PASSWORD });
    const cookie = cookieOf(await signIn('lead@example.com', NEW_PASSWORD))!;
    expect((await t.request({ method: 'GET', url: '/api/users', cookie })).statusCode).toBe(200);
  });

  it('is forced again by reset-password when it generates the password, not when one is given', async () => {
    await t.createUser({ role: 'admin', email: 'lead@example.com' });
    const { generatedPassword } = await resetPassword(t.db, 'lead@example.com');
    const printed = cookieOf(await signIn('lead@example.com', generatedPassword!))!;
    expect((await t.request({ method: 'GET', url: '/api/users', cookie: printed })).statusCode).toBe(403);
    await resetPassword(t.db, 'lead@example.com', NEW_PASSWORD);
    const chosen = cookieOf(await signIn('lead@example.com', NEW_PASSWORD))!;
    expect((await t.request({ method: 'GET', url: '/api/users', cookie: chosen })).statusCode).toBe(200);
  });
});

describe('ADMIN_EMAIL and ADMIN_PASSWORD at start', () => {
  it('re-enable, unlock and reset that admin, end its sessions and audit it', async () => {
    const { user } = await t.userWithSession('admin', { email: 'lead@example.com' });
    await t.db
      .updateTable('users')
      .set({ disabled: 1, failed_attempts: 3, locked_until: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', user.id)
      .execute();
    const restored = await ensureAdmin(t.db, { email: 'Lead@Example.com', password: NEW_PASSWORD });
    expect(restored).toEqual({ email: 'lead@example.com', action: 'restored' });
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'admin', disabled: 0, failed_attempts: 0, locked_until: null });
    expect(await verifyPassword(row.password_hash, NEW_PASSWORD)).toBe(true);
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect((await audit()).map((entry) => entry.action)).toEqual(['restore admin']);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/auth/login',
          body: { email: 'lead@example.com', password: NEW_PASSWORD },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('change nothing, and audit nothing, when that admin is already usable', async () => {
    await t.createUser({ role: 'admin', email: 'lead@example.com' });
    expect(await ensureAdmin(t.db, { email: 'lead@example.com', password: PASSWORD })).toBeNull();
    expect(await audit()).toEqual([]);
  });

  it('make that account an admin even when another admin exists', async () => {
    await t.createUser({ role: 'admin' });
    expect(await ensureAdmin(t.db, { email: 'second@example.com', password: NEW_PASSWORD })).toEqual({
      email: 'second@example.com',
      action: 'created',
    });
    expect((await admins()).map((admin) => admin.email)).toContain('second@example.com');
  });
});

describe('recovery commands', () => {
  it('unlock re-enables and unlocks the account, audited', async () => {
    const user = await t.createUser({
      role: 'admin',
      disabled: 1,
      failed_attempts: 3,
      locked_until: new Date(Date.now() + 60_000).toISOString(),
    });
    await unlockAccount(t.db, user.email.toUpperCase());
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      disabled: 0,
      failed_attempts: 0,
      locked_until: null,
      password_hash: user.password_hash,
    });
    expect(await audit()).toEqual([
      {
        actor: null,
        action: 'unlock account',
        details: `Re-enabled ${user.email} and lifted its sign-in lock`,
        screen: 'Admin command',
      },
    ]);
  });

  it('reset-password sets the given or a generated password, ends the sessions, audited', async () => {
    const { user } = await t.userWithSession('admin');
    expect(await resetPassword(t.db, user.email, NEW_PASSWORD)).toEqual({});
    let row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, NEW_PASSWORD)).toBe(true);
    expect(await t.db.selectFrom('sessions').select('id').execute()).toEqual([]);
    const { generatedPassword } = await resetPassword(t.db, user.email);
    row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, generatedPassword!)).toBe(true);
    expect((await audit()).map((entry) => entry.action)).toEqual(['reset password', 'reset password']);
  });

  it('refuse an unknown email and a password that breaks the rule, changing nothing', async () => {
    const user = await t.createUser();
    await expect(unlockAccount(t.db, 'nobody@example.com')).rejects.toThrow(AccountRecoveryError);
    await expect(resetPassword(t.db, 'nobody@example.com', NEW_PASSWORD)).rejects.toThrow(
      'No account has the email nobody@example.com.',
    );
    await expect(resetPassword(t.db, user.email, 'weak')).rejects.toThrow(AccountRecoveryError);
    expect(await audit()).toEqual([]);
  });
});

describe('npm run admin', () => {
  it('resets a password read from stdin on the database the server uses, while the server runs', async () => {
    const target = usingPostgres() ? await freshPostgresDatabase('admin_cli') : sqliteDirectory();
    try {
      const env = { ...process.env, ...target.env, LOG_LEVEL: 'silent' };
      // The server's own start-up creates the admin on that database (and keeps it open).
      const { db, close } = await target.open();
      try {
        await ensureAdmin(db, { email: 'cli@example.com', password: PASSWORD });
        const command = execFile(
          process.execPath,
          ['--import', 'tsx', 'src/cli/admin.ts', 'reset-password', 'cli@example.com'],
          {
            cwd: SERVER_DIR,
            env,
          },
        );
        command.stdin!.end(`${NEW_PASSWORD}\n`);
        const output = await new Promise<string>((resolve, reject) => {
          let text = '';
          command.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
          command.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}: ${text}`))));
        });
        expect(output).toContain('cli@example.com: password set');
        expect(output).not.toContain(NEW_PASSWORD);
        const row = await db
          .selectFrom('users')
          .selectAll()
          .where('email', '=', 'cli@example.com')
          .executeTakeFirstOrThrow();
        expect(await verifyPassword(row.password_hash, NEW_PASSWORD)).toBe(true);

        const unknown = await run(
          process.execPath,
          ['--import', 'tsx', 'src/cli/admin.ts', 'unlock', 'ghost@example.com'],
          { cwd: SERVER_DIR, env },
        ).catch((error: { code: number; stderr: string }) => error);
        expect(unknown).toMatchObject({
          code: 1,
          stderr: expect.stringContaining('No account has the email ghost@example.com.'),
        });
      } finally {
        await close();
      }
    } finally {
      await target.drop();
    }
  }, 60_000);
});

function sqliteDirectory() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-cli-'));
  return {
    env: { DATA_DIR: dir, DATABASE_URL: '' },
    async open() {
      const { migrateToLatest, openDatabase } = await import('./db/database');
      const { db } = openDatabase({ dataDir: dir });
      await migrateToLatest(db);
      return { db, close: () => db.destroy() };
    },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `src/main.ts` as a real process (or, `compiled`, the bundle `npm start` runs); resolves once it listens,
 * rejects if it exits first. `port` and `env` may set the port and more of its environment.
 */
async function startServer(
  env: Record<string, string>,
  options: { compiled?: boolean; port?: number; env?: Record<string, string> } = {},
) {
  const port = options.port ?? (await freePort());
  const entry = options.compiled ? ['--enable-source-maps', 'dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, entry, {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: path.join(os.tmpdir(), 'tradecraft-no-web'),
      ...options.env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (output.includes('Tradecraft is running at')) resolve();
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
  return {
    listening,
    async health() {
      return (await fetch(`http://127.0.0.1:${port}/api/health`)).status;
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const onPostgres = usingPostgres() ? describe : null;
onPostgres?.('servers starting at the same moment on one empty PostgreSQL database', () => {
  async function startTogether(
    database: Awaited<ReturnType<typeof freshPostgresDatabase>>,
    whileStarting?: () => Promise<void>,
  ) {
    const servers = await Promise.all([1, 2, 3].map(() => startServer(database.env)));
    try {
      await whileStarting?.();
      const started = await Promise.allSettled(servers.map((server) => server.listening));
      expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'up'))).toEqual([
        'up',
        'up',
        'up',
      ]);
      expect(await Promise.all(servers.map((server) => server.health()))).toEqual([200, 200, 200]);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
    const { db, close } = await database.open({ migrate: false });
    try {
      return await db.selectFrom('users').select('email').where('role', '=', 'admin').execute();
    } finally {
      await close();
    }
  }

  it('all stay up, and there is one admin', async () => {
    const database = await freshPostgresDatabase('start');
    try {
      expect(await startTogether(database)).toEqual([{ email: 'admin@localhost' }]);
    } finally {
      await database.drop();
    }
  }, 120_000);

  it('all stay up, and there is one admin, when inserts into users are held for a few seconds', async () => {
    const database = await freshPostgresDatabase('start_held');
    try {
      await (await database.open()).close(); // migrated, so the table exists to be locked
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table users in share row exclusive mode'); // reads pass, inserts wait
        const admins = await startTogether(database, async () => {
          // Hold until all three servers wait on a lock (the insert, or their turn to decide), then a little longer.
          // Watched from a connection of its own: inside the holder's transaction the view would not change.
          const watcher = new pg.Client({ connectionString: database.url });
          await watcher.connect();
          try {
            const waiting = async () =>
              (
                await watcher.query<{ n: number }>(
                  "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
                )
              ).rows[0]!.n;
            const deadline = Date.now() + 60_000;
            while ((await waiting()) < 3 && Date.now() < deadline)
              await new Promise((resolve) => setTimeout(resolve, 200));
            expect(await waiting()).toBe(3);
          } finally {
            await watcher.end();
          }
          await new Promise((resolve) => setTimeout(resolve, 1000));
          await holder.query('commit');
        });
        expect(admins).toEqual([{ email: 'admin@localhost' }]);
      } finally {
        await holder.end();
      }
    } finally {
      await database.drop();
    }
  }, 120_000);
});

/** A client of one server process: keeps its own cookie, sends the shared public origin. */
function clientOf(base: string, origin: string) {
  let cookie = '';
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        origin,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const session = response.headers.getSetCookie().find((line) => line.startsWith('tc_session='));
    if (session) cookie = session.split(';')[0]!;
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : null };
  };
  return {
    call,
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      cookie = value;
    },
  };
}

/** Reads a Server-Sent Events stream until an event of that name arrives (or fails after `timeoutMs`). */
async function nextEvent(response: Response, name: string, timeoutMs = 10_000): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  try {
    while (!text.includes(`event: ${name}`)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no "${name}" event within ${timeoutMs} ms:\n${text}`);
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no "${name}" event: ${text}`)), left)),
      ]);
      if (chunk.done) throw new Error(`the stream ended before "${name}":\n${text}`);
      text += decoder.decode(chunk.value);
    }
  } finally {
    reader.releaseLock();
  }
}

onPostgres?.('two compiled servers on one PostgreSQL database, as behind a load balancer', () => {
  it('share sessions, rate limits, notifications and runs: what one does, the other sees', async () => {
    const { buildServerIfStale } = (await import(path.join(SERVER_DIR, '../../scripts/build-server.mjs'))) as {
      buildServerIfStale: () => Promise<void>;
    };
    await buildServerIfStale();
    const database = await freshPostgresDatabase('two_servers');
    const ports = [await freePort(), await freePort()] as const;
    // Behind one public address: both answer for it and take its Origin.
    const origin = `http://127.0.0.1:${ports[0]}`;
    const shared = {
      PUBLIC_ORIGIN: origin,
      TRUSTED_HOSTS: ports.map((port) => `127.0.0.1:${port}`).join(','),
      ADMIN_EMAIL: 'lead@example.com',
      ADMIN_PASSWORD: PASSWORD,
      RUN_STARTS_PER_MINUTE: '3',
    };
    // Both start at the same moment on the empty database: one migrates, the other waits for it.
    const servers = await Promise.all(
      ports.map((port) => startServer(database.env, { compiled: true, port, env: shared })),
    );
    try {
      const started = await Promise.allSettled(servers.map((server) => server.listening));
      expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'up'))).toEqual([
        'up',
        'up',
      ]);
      const [a, b] = ports.map((port) => clientOf(`http://127.0.0.1:${port}`, origin)) as [
        ReturnType<typeof clientOf>,
        ReturnType<typeof clientOf>,
      ];

      // A session made on one server is valid on the other; signing out on the other ends it on both.
      expect((await a.call('POST', '/api/auth/login', { email: 'lead@example.com', password: PASSWORD })).status).toBe(
        200,
      );
      b.cookie = a.cookie;
      expect((await b.call('GET', '/api/auth/me')).json).toMatchObject({ user: { email: 'lead@example.com' } });

      // A notification written by one server reaches a stream held open on the other (LISTEN/NOTIFY).
      const stream = await fetch(`http://127.0.0.1:${ports[1]}/api/notifications/stream`, {
        headers: { cookie: b.cookie, origin },
      });
      await nextEvent(stream, 'ready');
      const stranger = clientOf(`http://127.0.0.1:${ports[0]}`, origin);
      const registered = await stranger.call('POST', '/api/auth/register', {
        firstName: 'Nadia',
        lastName: 'Okafor',
        email: 'nadia@example.com',
        password: PASSWORD,
      });
      expect(registered.status).toBe(201);
      await nextEvent(stream, 'notification');
      await stream.body!.cancel();
      expect((await b.call('GET', '/api/notifications')).json.unread).toBeGreaterThan(0);

      // A run started on one server is played on the other, and read back on the first.
      const scenarioId = (await a.call('GET', '/api/sim/list')).json.scenarios[0].id as string;
      const startedRun = await a.call('POST', '/api/runs', { scenarioId });
      expect(startedRun.status).toBe(201);
      const runId = startedRun.json.run.id as string;
      const ended = await b.call('POST', `/api/runs/${runId}/end`, {});
      expect(ended.json.run).toMatchObject({ id: runId, status: 'ended' });
      expect((await a.call('GET', `/api/runs/${runId}`)).json.run.status).toBe('ended');

      // The run-start limit (3 a minute here) counts starts on both servers together. Each asks to start over:
      // a plain start would continue the trainee's unfinished run, which starts nothing and counts nothing.
      const startOver = { scenarioId, startOver: true };
      expect((await b.call('POST', '/api/runs', startOver)).status).toBe(201);
      expect((await a.call('POST', '/api/runs', startOver)).status).toBe(201);
      expect((await b.call('POST', '/api/runs', startOver)).status).toBe(429);

      expect((await b.call('POST', '/api/auth/logout', {})).status).toBe(200);
      expect((await a.call('GET', '/api/auth/me')).json).toEqual({ user: null });
      expect((await a.call('GET', '/api/notifications')).status).toBe(401);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      await database.drop();
    }
  }, 120_000);
});
