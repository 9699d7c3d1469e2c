import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';

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
