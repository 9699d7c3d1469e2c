import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, usingPostgres, type TestApp } from '../../test/helper';
import { SQLITE_DRIVER_PACKAGE } from './sqlite-driver';

/**
 * Another process writing the same SQLite file (an admin command, a backup), played by a worker thread with a
 * connection of its own: it takes the write lock, writes a row of `users`, holds the lock `holdMs`, commits,
 * pauses `pauseMs` and starts again until stopped. With `holdMs` 'untilStopped' it holds the lock once, until
 * stopped.
 */
function otherWriter(file: string, userId: string, holdMs: number | 'untilStopped', pauseMs = 0) {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `
    const { workerData, parentPort } = require('node:worker_threads');
    const Database = require(workerData.driver);
    const db = new Database(workerData.file);
    db.pragma('busy_timeout = 5000');
    const write = db.prepare('update users set designation = ? where id = ?');
    let writes = 0;
    if (workerData.holdUntilStopped) {
      db.exec('begin immediate');
      write.run('written elsewhere', workerData.userId);
      parentPort.postMessage('writing');
      Atomics.wait(workerData.stop, 0, 0);
      db.exec('commit');
      writes = 1;
    }
    while (Atomics.load(workerData.stop, 0) === 0) {
      db.exec('begin immediate');
      write.run('written elsewhere ' + writes, workerData.userId);
      const until = Date.now() + workerData.holdMs;
      while (Date.now() < until) {}
      db.exec('commit');
      writes += 1;
      if (writes === 1) parentPort.postMessage('writing');
      Atomics.wait(workerData.stop, 0, 0, workerData.pauseMs);
    }
    db.close();
    parentPort.postMessage(writes);
    `,
    {
      eval: true,
      workerData: {
        // The worker loads the same driver the server does (the Node-API build on Node 22+).
        driver: createRequire(import.meta.url).resolve(SQLITE_DRIVER_PACKAGE),
        file,
        userId,
        holdMs: holdMs === 'untilStopped' ? 0 : holdMs,
        holdUntilStopped: holdMs === 'untilStopped',
        pauseMs,
        stop,
      },
    },
  );
  const started = new Promise((resolve) => worker.once('message', resolve));
  return {
    started,
    async stop(): Promise<number> {
      const writes = new Promise<number>((resolve) =>
        worker.on('message', (message) => typeof message === 'number' && resolve(message)),
      );
      Atomics.store(stop, 0, 1);
      Atomics.notify(stop, 0);
      return writes;
    },
  };
}

/**
 * The same on PostgreSQL: a second connection (pooled apart from the app's) writing a row of `users` in short
 * transactions, holding its row lock `holdMs` each time.
 */
function otherPostgresWriter(t: TestApp, userId: string, holdMs: number) {
  let stopped = false;
  let writes = 0;
  let signalStarted = () => {};
  const started = new Promise<void>((resolve) => {
    signalStarted = resolve;
  });
  const loop = (async () => {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db);
    const client = new pg.Client({
      connectionString: process.env.TEST_DATABASE_URL,
      options: `-c search_path=${rows[0]!.schema}`,
    });
    await client.connect();
    while (!stopped) {
      await client.query('begin');
      await client.query('update users set designation = $1 where id = $2', [`written elsewhere ${writes}`, userId]);
      await client.query('select pg_sleep($1)', [holdMs / 1000]);
      await client.query('commit');
      writes += 1;
      if (writes === 1) signalStarted();
    }
    await client.end();
  })();
  return {
    started,
    async stop(): Promise<number> {
      stopped = true;
      await loop;
      return writes;
    },
  };
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Only SQLite's busy timeout can run out: PostgreSQL's row locks simply wait.
const onSqlite = usingPostgres() ? null : it;

describe('a second process writing the same database', () => {
  it('makes PATCH /api/users/{id} wait for the lock, never answer 500', async () => {
    t = await createTestApp();
    const { cookie } = await t.userWithSession('admin');
    const edited = await t.createUser();
    const elsewhere = await t.createUser();
    const writer = t.sqliteFile
      ? otherWriter(t.sqliteFile, elsewhere.id, 3, 3)
      : otherPostgresWriter(t, elsewhere.id, 3);
    await writer.started;
    const statuses: number[] = [];
    for (let index = 0; index < 150; index += 1) {
      const response = await t.request({
        method: 'PATCH',
        url: `/api/users/${edited.id}`,
        body: { designation: `Analyst ${index}` },
        cookie,
      });
      statuses.push(response.statusCode);
    }
    const writes = await writer.stop();
    expect(writes).toBeGreaterThan(10); // the two really interleaved
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const row = await t.db
      .selectFrom('users')
      .select('designation')
      .where('id', '=', edited.id)
      .executeTakeFirstOrThrow();
    expect(row.designation).toBe('Analyst 149');
  });

  onSqlite?.('answers 503 with Retry-After when the lock outlasts the busy timeout, and changes nothing', async () => {
    t = await createTestApp({}, { sqliteBusyTimeoutMs: 100 });
    const { cookie } = await t.userWithSession('admin');
    const edited = await t.createUser({ designation: 'Before' });
    const writer = otherWriter(t.sqliteFile!, edited.id, 'untilStopped');
    await writer.started; // the lock is taken until the writer is stopped
    const response = await t.request({
      method: 'PATCH',
      url: `/api/users/${edited.id}`,
      body: { firstName: 'Changed' },
      cookie,
    });
    await writer.stop();
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toEqual({ error: 'The database is busy. Please try again in a moment.' });
    const row = await t.db
      .selectFrom('users')
      .select('first_name')
      .where('id', '=', edited.id)
      .executeTakeFirstOrThrow();
    expect(row.first_name).toBe(edited.first_name);
  });
});
