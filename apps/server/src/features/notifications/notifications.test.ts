import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, PASSWORD, usingPostgres, type TestApp } from '../../../test/helper';
import { buildApp } from '../../app';
import { openDatabase, type Db } from '../../db/database';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

async function testApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp(env);
  opened.push(t);
  return t;
}

const register = (t: TestApp, email: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/register',
    body: { firstName: 'Nia', lastName: 'New', designation: 'Analyst', email, password: PASSWORD },
  });

const userOf = (t: TestApp, email: string) =>
  t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();

/** Approves a registration as that admin. */
const approve = (t: TestApp, id: string, cookie: string) =>
  t.request({ method: 'POST', url: `/api/users/${id}/approve`, body: { role: 'student' }, cookie });

describe('GET /api/notifications and POST /api/notifications/read', () => {
  it("shows each admin the registration, newest first with the unread count, and marks only the caller's read", async () => {
    const t = await testApp();
    const admin = await t.userWithSession('admin');
    const otherAdmin = await t.userWithSession('admin');
    const student = await t.userWithSession('student');
    expect((await register(t, 'first@example.com')).statusCode).toBe(201);
    expect((await register(t, 'second@example.com')).statusCode).toBe(201);

    const list = await t.request({ method: 'GET', url: '/api/notifications', cookie: admin.cookie });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body.unread).toBe(2);
    expect(body.items).toHaveLength(2);
    expect(body.items[0]).toMatchObject({
      kind: 'registration',
      message: 'Nia New (second@example.com) registered and awaits approval.',
      link: '/admin/pending-users',
      read: false,
    });
    expect(body.items[1].message).toContain('first@example.com');

    const studentList = await t.request({ method: 'GET', url: '/api/notifications', cookie: student.cookie });
    expect(studentList.json()).toEqual({ items: [], unread: 0 });

    const read = await t.request({ method: 'POST', url: '/api/notifications/read', body: {}, cookie: admin.cookie });
    expect(read.statusCode).toBe(200);
    const after = (await t.request({ method: 'GET', url: '/api/notifications', cookie: admin.cookie })).json();
    expect(after.unread).toBe(0);
    expect(after.items.every((item: { read: boolean }) => item.read)).toBe(true);
    expect(
      (await t.request({ method: 'GET', url: '/api/notifications', cookie: otherAdmin.cookie })).json().unread,
    ).toBe(2);
  });

  it("marks every admin's notification of a registration read once any admin approves it", async () => {
    const t = await testApp();
    const admin = await t.userWithSession('admin');
    const otherAdmin = await t.userWithSession('admin');
    await register(t, 'approved@example.com');
    await register(t, 'waiting@example.com');
    const pending = await userOf(t, 'approved@example.com');

    const approved = await approve(t, pending.id, admin.cookie);
    expect(approved.statusCode).toBe(200);
    for (const cookie of [admin.cookie, otherAdmin.cookie]) {
      const list = (await t.request({ method: 'GET', url: '/api/notifications', cookie })).json();
      expect(list.unread).toBe(1);
      const byEmail = (email: string) => list.items.find((item: { message: string }) => item.message.includes(email));
      expect(byEmail('approved@example.com').read).toBe(true);
      expect(byEmail('waiting@example.com').read).toBe(false);
    }
  });

  it("marks every admin's notification of a registration read once any admin rejects it", async () => {
    const t = await testApp();
    const admin = await t.userWithSession('admin');
    const otherAdmin = await t.userWithSession('admin');
    await register(t, 'rejected@example.com');
    const pending = await userOf(t, 'rejected@example.com');

    const rejected = await t.request({ method: 'DELETE', url: `/api/users/${pending.id}`, cookie: otherAdmin.cookie });
    expect(rejected.statusCode).toBe(200);
    for (const cookie of [admin.cookie, otherAdmin.cookie]) {
      const list = (await t.request({ method: 'GET', url: '/api/notifications', cookie })).json();
      expect(list).toMatchObject({ unread: 0, items: [{ read: true }] });
    }
  });

  it('leaves other kinds of notification unread when a registration is handled', async () => {
    const t = await testApp();
    const admin = await t.userWithSession('admin');
    await register(t, 'handled@example.com');
    // Someone tries to register again with the admin's own address: the admin is told through the bell.
    await register(t, admin.user.email);
    const pending = await userOf(t, 'handled@example.com');
    await t.request({ method: 'DELETE', url: `/api/users/${pending.id}`, cookie: admin.cookie });
    const list = (await t.request({ method: 'GET', url: '/api/notifications', cookie: admin.cookie })).json();
    expect(list.unread).toBe(1);
    expect(list.items.find((item: { read: boolean }) => !item.read).kind).toBe('registration-attempt');
  });

  it('needs a signed-in user', async () => {
    const t = await testApp();
    expect((await t.request({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/notifications/read', body: {} })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/notifications/stream' })).statusCode).toBe(401);
  });
});

/** Reads a Server-Sent Events response: waits for the next event with the given name. */
function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(name: string, timeoutMs = 5000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop()!;
        const found = blocks.find((block) => block.split('\n').includes(`event: ${name}`));
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no '${name}' event within ${timeoutMs} ms`);
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error(`no '${name}' event within ${timeoutMs} ms`)), left),
          ),
        ]);
        if (chunk.done) throw new Error('the stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    /** Resolves true when the server ends the stream within the time, false otherwise. */
    async ended(timeoutMs: number): Promise<boolean> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        const chunk = await Promise.race([
          reader.read().catch(() => ({ done: true as const, value: undefined })),
          new Promise<null>((resolve) => setTimeout(resolve, left, null)),
        ]);
        if (chunk === null) return false;
        if (chunk.done) return true;
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const openStream = (base: string, cookie: string) =>
  fetch(`${base}/api/notifications/stream`, { headers: { cookie: `${SESSION_COOKIE}=${cookie}`, origin: ORIGIN } });

describe('GET /api/notifications/stream', () => {
  it('sends an event to a signed-in admin when someone registers, and none to a student', async () => {
    const t = await testApp(usingPostgres() ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : {});
    const admin = await t.userWithSession('admin');
    const student = await t.userWithSession('student');
    const base = await listen(t.app);

    const response = await openStream(base, admin.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const adminEvents = eventReader(response);
    await adminEvents.next('ready');
    const studentEvents = eventReader(await openStream(base, student.cookie));
    await studentEvents.next('ready');

    expect((await register(t, 'live@example.com')).statusCode).toBe(201);
    await adminEvents.next('notification');
    await expect(studentEvents.next('notification', 300)).rejects.toThrow(/no 'notification' event/);

    // An open stream must not hold the server open.
    const closing = t.app.close();
    await expect(
      Promise.race([closing.then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 3000, 'hung'))]),
    ).resolves.toBe('closed');
    await adminEvents.cancel();
    await studentEvents.cancel();
  });

  it("sends every admin's stream an event when another admin handles a registration", async () => {
    const t = await testApp(usingPostgres() ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : {});
    const admin = await t.userWithSession('admin');
    const watching = await t.userWithSession('admin');
    await register(t, 'queue@example.com');
    const pending = await userOf(t, 'queue@example.com');
    const base = await listen(t.app);
    const events = eventReader(await openStream(base, watching.cookie));
    await events.next('ready');

    const approved = await approve(t, pending.id, admin.cookie);
    expect(approved.statusCode).toBe(200);
    await events.next('notification');
    await events.cancel();
  });

  // Only PostgreSQL has several server processes; on SQLite the in-process emitter above is the whole path.
  const onPostgres = usingPostgres() ? it : null;
  onPostgres?.('reaches a stream on another server process through LISTEN/NOTIFY', async () => {
    const databaseUrl = process.env.TEST_DATABASE_URL!;
    const t = await testApp({ DATABASE_URL: databaseUrl });
    const admin = await t.userWithSession('admin');
    // A second server on the same database: its own pool, its own LISTEN connection.
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db);
    const second = openDatabase({ databaseUrl, pgSchema: rows[0]!.schema, pgPoolSize: 2 });
    const secondApp = await buildApp({ config: t.config, db: second.db as Db, dialect: 'postgres' });
    opened.push({ close: async () => (await secondApp.close(), await second.db.destroy()) });
    const base = await listen(secondApp);

    const events = eventReader(await openStream(base, admin.cookie));
    await events.next('ready');
    expect((await register(t, 'elsewhere@example.com')).statusCode).toBe(201); // through the first server
    await events.next('notification');
    await events.cancel();
  });
});

describe('closing streams', () => {
  // The heartbeat (25 s) would end them eventually; these must end within a second.
  const SOON_MS = 2000;

  async function streamOf(t: TestApp, base: string, cookie: string) {
    const events = eventReader(await openStream(base, cookie));
    await events.next('ready');
    opened.push({ close: events.cancel });
    return events;
  }

  it('ends the streams of a session at once when it signs out, and leaves other sessions streaming', async () => {
    const t = await testApp(usingPostgres() ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : {});
    const user = await t.createUser({ role: 'student' });
    const [leaving, staying] = [await t.signIn(user.email), await t.signIn(user.email)];
    const base = await listen(t.app);
    const leavingStream = await streamOf(t, base, leaving);
    const stayingStream = await streamOf(t, base, staying);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', body: {}, cookie: leaving })).statusCode).toBe(
      200,
    );
    expect(await leavingStream.ended(SOON_MS)).toBe(true);
    expect(await stayingStream.ended(300)).toBe(false);
  });

  it('ends every stream of a user at once when an admin disables them', async () => {
    const t = await testApp(usingPostgres() ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : {});
    const admin = await t.userWithSession('admin');
    const student = await t.userWithSession('student');
    const base = await listen(t.app);
    const stream = await streamOf(t, base, student.cookie);
    const disabled = await t.request({
      method: 'PATCH',
      url: `/api/users/${student.user.id}`,
      body: { disabled: true },
      cookie: admin.cookie,
    });
    expect(disabled.statusCode).toBe(200);
    expect(await stream.ended(SOON_MS)).toBe(true);
  });

  it('keeps at most three streams per session: a fourth closes the oldest', async () => {
    const t = await testApp();
    const { cookie } = await t.userWithSession('student');
    const base = await listen(t.app);
    const streams = [];
    for (let i = 0; i < 3; i++) streams.push(await streamOf(t, base, cookie));
    const fourth = await streamOf(t, base, cookie);
    expect(await streams[0]!.ended(SOON_MS)).toBe(true);
    for (const open of [streams[1]!, streams[2]!, fourth]) expect(await open.ended(200)).toBe(false);
  });
});
