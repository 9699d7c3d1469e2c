import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_ITEMS, type SetupChecklist } from '@tradecraft/shared';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/helper';

describe('the platform difficulty', () => {
  let t: TestApp;
  let admin: { cookie: string; email: string };
  let student: string;

  beforeAll(async () => {
    t = await createTestApp();
    const a = await t.userWithSession('admin');
    admin = { cookie: a.cookie, email: a.user.email };
    student = (await t.userWithSession('student')).cookie;
  });
  afterAll(() => t.close());

  const get = (cookie?: string) =>
    t.request({ method: 'GET', url: '/api/settings/difficulty', ...(cookie ? { cookie } : {}) });
  const put = (body: unknown, cookie = admin.cookie) =>
    t.request({ method: 'PUT', url: '/api/settings/difficulty', cookie, body });

  it('is 3 until an admin sets it', async () => {
    const response = await get(student);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ difficulty: 3 });
  });

  it('is saved for everyone by an admin, with an audit entry', async () => {
    const saved = await put({ difficulty: 4 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ difficulty: 4 });
    expect((await get(student)).json()).toEqual({ difficulty: 4 });

    expect((await put({ difficulty: 5 })).statusCode).toBe(200);
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'set difficulty')
      .orderBy('id')
      .execute();
    expect(audit.map(({ actor, details, screen }) => ({ actor, details, screen }))).toEqual([
      { actor: admin.email, details: 'Changed the platform difficulty from 3 to 4', screen: 'Difficulty Adjuster' },
      { actor: admin.email, details: 'Changed the platform difficulty from 4 to 5', screen: 'Difficulty Adjuster' },
    ]);
  });

  it('accepts only a whole number from 1 to 5', async () => {
    for (const difficulty of [0, 6, 2.5, '3', null]) {
      const response = await put({ difficulty });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('Difficulty must be a whole number from 1 to 5.');
    }
    expect((await put({})).statusCode).toBe(400);
    expect((await get(student)).json()).toEqual({ difficulty: 5 });
  });

  it('can be changed by admins only and read by signed-in users only', async () => {
    expect((await put({ difficulty: 1 }, student)).statusCode).toBe(403);
    expect((await get()).statusCode).toBe(401);
    expect((await get(student)).json()).toEqual({ difficulty: 5 });
  });
});

describe('the setup checklist', () => {
  let t: TestApp;
  let admin: { cookie: string; email: string };
  let otherAdmin: string;

  beforeAll(async () => {
    // PUBLIC_ORIGIN left unset (an empty value means unset): the server answers on its localhost default.
    t = await createTestApp({ PUBLIC_ORIGIN: '' });
    const a = await t.userWithSession('admin');
    admin = { cookie: a.cookie, email: a.user.email };
    otherAdmin = (await t.userWithSession('admin')).cookie;
  });
  afterAll(() => t.close());

  const checklist = async (cookie = admin.cookie) => {
    const response = await t.request({ method: 'GET', url: '/api/settings/setup-checklist', cookie });
    expect(response.statusCode).toBe(200);
    return Object.fromEntries(
      (response.json() as SetupChecklist).items.map((item) => [
        item.id,
        { done: item.done, dismissed: item.dismissed },
      ]),
    );
  };
  const dismiss = (item: unknown, cookie = admin.cookie) =>
    t.request({ method: 'POST', url: '/api/settings/setup-checklist/dismiss', body: { item }, cookie });

  it('lists every step not done on a fresh platform, in order', async () => {
    const response = await t.request({ method: 'GET', url: '/api/settings/setup-checklist', cookie: admin.cookie });
    expect((response.json() as SetupChecklist).items).toEqual(
      SETUP_ITEMS.map((id) => ({ id, done: false, dismissed: false })),
    );
  });

  it('marks each step done from what the platform holds', async () => {
    await t.createUser({ role: 'student' });
    await t.request({ method: 'PUT', url: '/api/settings/difficulty', cookie: admin.cookie, body: { difficulty: 2 } });
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/password',
      cookie: admin.cookie,
      body: { currentPassword: PASSWORD, newPassword: 'N3w!Password', confirmPassword: 'N3w!Password' },
    });
    admin.cookie = changed.cookies.find((cookie) => cookie.name === 'tc_session')!.value;
    const list = await checklist();
    expect(list).toMatchObject({
      passwordChanged: { done: true },
      traineeApproved: { done: true },
      difficultyChosen: { done: true },
      scenarioUploaded: { done: false },
      publicOriginSet: { done: false },
    });
    // "Password changed" is each admin's own.
    expect((await checklist(otherAdmin)).passwordChanged).toEqual({ done: false, dismissed: false });
  });

  it('keeps a dismissal on the server for every admin, audited once', async () => {
    const dismissed = await dismiss('scenarioUploaded');
    expect(dismissed.statusCode).toBe(200);
    expect((await dismiss('scenarioUploaded', otherAdmin)).statusCode).toBe(200);
    expect((await checklist(otherAdmin)).scenarioUploaded).toEqual({ done: false, dismissed: true });
    const audit = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'dismiss setup step')
      .execute();
    expect(audit).toEqual([{ details: 'Dismissed the setup checklist step "scenarioUploaded"' }]);
  });

  it('refuses an unknown step with 400, and a trainee with 403', async () => {
    expect((await dismiss('somethingElse')).statusCode).toBe(400);
    const student = (await t.userWithSession('student')).cookie;
    expect((await t.request({ method: 'GET', url: '/api/settings/setup-checklist', cookie: student })).statusCode).toBe(
      403,
    );
  });
});

describe('the setup checklist with PUBLIC_ORIGIN set', () => {
  it('counts the public origin step done', async () => {
    const t = await createTestApp();
    try {
      const { cookie } = await t.userWithSession('admin');
      const response = await t.request({ method: 'GET', url: '/api/settings/setup-checklist', cookie });
      expect((response.json() as SetupChecklist).items.find((item) => item.id === 'publicOriginSet')?.done).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('the setup checklist with ADMIN_PASSWORD set', () => {
  it("counts that admin's password as chosen (the operator's own), and no other admin's", async () => {
    const t = await createTestApp({ ADMIN_EMAIL: 'operator@example.com', ADMIN_PASSWORD: 'Operator!Pass1' });
    try {
      const done = async (cookie: string) =>
        (
          (await t.request({ method: 'GET', url: '/api/settings/setup-checklist', cookie })).json() as SetupChecklist
        ).items.find((item) => item.id === 'passwordChanged')?.done;
      const operator = await t.userWithSession('admin', { email: 'operator@example.com' });
      const other = await t.userWithSession('admin');
      expect(await done(operator.cookie)).toBe(true);
      expect(await done(other.cookie)).toBe(false);
    } finally {
      await t.close();
    }
  });
});
