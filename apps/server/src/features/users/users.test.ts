import { randomUUID } from 'node:crypto';
import { USER_EDIT_MESSAGES, type ManagedUser, type UsersPage } from '@tradecraft/shared';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowUndeclaredStatus, createTestApp, PASSWORD, type TestApp } from '../../../test/helper';
import { nowIso } from '../../clock';
import { updateUser } from './users.service';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['userWithSession']>>;

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.userWithSession('admin', { email: 'boss@example.com', first_name: 'Ada', last_name: 'Admin' });
});
afterEach(() => t.close());

const auditRows = () => t.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
const userRow = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('pending approvals', () => {
  it('approves a pending user as admin, audits it, and the user leaves the pending list', async () => {
    const pending = await t.createUser({ role: 'pending', email: 'new@example.com' });
    const approved = await t.request({
      method: 'POST',
      url: `/api/users/${pending.id}/approve`,
      body: { role: 'admin' },
      cookie: admin.cookie,
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().user.role).toBe('admin');
    const list = await t.request({ method: 'GET', url: '/api/users/pending', cookie: admin.cookie });
    expect(list.json().users).toEqual([]);
    const [entry] = await auditRows();
    expect(entry).toMatchObject({ actor: 'boss@example.com', action: 'approve user', screen: 'Pending Approvals' });
    expect(entry!.details).toContain('new@example.com as admin');
  });

  it('rejects (deletes) a pending user once; a second reject answers 404', async () => {
    const pending = await t.createUser({ role: 'pending' });
    const first = await t.request({ method: 'DELETE', url: `/api/users/${pending.id}`, cookie: admin.cookie });
    expect(first.statusCode).toBe(200);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', pending.id).executeTakeFirst()).toBeUndefined();
    const second = await t.request({ method: 'DELETE', url: `/api/users/${pending.id}`, cookie: admin.cookie });
    expect(second.statusCode).toBe(404);
    expect((await auditRows()).map((row) => row.action)).toEqual(['reject user']);
  });

  it('refuses to reject an approved account (reject is only for registrations)', async () => {
    const student = await t.createUser({ role: 'student' });
    const response = await t.request({ method: 'DELETE', url: `/api/users/${student.id}`, cookie: admin.cookie });
    expect(response.statusCode).toBe(409);
    expect(await userRow(student.id)).toBeTruthy();
  });

  it('lets no student approve, list or reject', async () => {
    const student = await t.userWithSession('student');
    const pending = await t.createUser({ role: 'pending' });
    for (const [method, url] of [
      ['GET', '/api/users/pending'],
      ['POST', `/api/users/${pending.id}/approve`],
      ['DELETE', `/api/users/${pending.id}`],
      ['GET', '/api/users'],
      ['GET', '/api/users/stats'],
      ['GET', '/api/users/dashboard-stats'],
      ['PATCH', `/api/users/${pending.id}`],
    ] as const) {
      const body = method === 'POST' ? { role: 'student' } : method === 'PATCH' ? { role: 'admin' } : undefined;
      const response = await t.request({ method, url, body, cookie: student.cookie });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await userRow(pending.id)).role).toBe('pending');
  });
});

describe('GET /api/users', () => {
  const list = async (query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/users?${query}`, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    return response.json() as UsersPage;
  };
  const emails = (page: UsersPage) => page.items.map((user: ManagedUser) => user.email);

  beforeEach(async () => {
    await t.createUser({ email: 'carol@example.com', first_name: 'Carol', last_name: 'Zhu', designation: 'SOC Lead' });
    await t.createUser({
      email: 'bob@example.com',
      first_name: 'bob',
      last_name: 'Young',
      designation: 'Hunter',
      disabled: 1,
    });
    await t.createUser({
      email: 'dan@example.com',
      first_name: 'Dan',
      last_name: 'Xu',
      designation: '100%_sure',
      role: 'admin',
    });
    await t.createUser({ email: 'pat@example.com', first_name: 'Pat', last_name: 'Pending', role: 'pending' });
  });

  it('lists approved accounts only, sorted by name case-insensitively', async () => {
    const page = await list('');
    expect(emails(page)).toEqual(['boss@example.com', 'bob@example.com', 'carol@example.com', 'dan@example.com']);
    expect(page.total).toBe(4);
    expect(page.items[1]).toMatchObject({
      firstName: 'bob',
      lastName: 'Young',
      role: 'student',
      disabled: true,
      designation: 'Hunter',
    });
  });

  it('searches name, email and designation case-insensitively, with % and _ taken literally', async () => {
    expect(emails(await list('search=CAROL%20zhu'))).toEqual(['carol@example.com']);
    expect(emails(await list('search=soc%20LEAD'))).toEqual(['carol@example.com']);
    expect(emails(await list('search=BOB@'))).toEqual(['bob@example.com']);
    expect(emails(await list(`search=${encodeURIComponent('0%_')}`))).toEqual(['dan@example.com']);
    expect(emails(await list(`search=${encodeURIComponent('%')}`))).toEqual(['dan@example.com']);
  });

  it('filters by role and status, and lists registrations only when asked', async () => {
    expect(emails(await list('role=admin'))).toEqual(['boss@example.com', 'dan@example.com']);
    expect(emails(await list('status=disabled'))).toEqual(['bob@example.com']);
    expect(emails(await list('role=pending'))).toEqual(['pat@example.com']);
  });

  it('sorts by each column both ways and pages in SQL', async () => {
    expect(emails(await list('sort=email&dir=desc'))).toEqual([
      'dan@example.com',
      'carol@example.com',
      'boss@example.com',
      'bob@example.com',
    ]);
    expect(emails(await list('sort=status&dir=desc'))[0]).toBe('bob@example.com');
    expect(
      emails(await list('sort=role&dir=asc'))
        .slice(0, 2)
        .sort(),
    ).toEqual(['boss@example.com', 'dan@example.com']);
    expect(emails(await list('sort=designation&dir=asc'))[0]).toBe('dan@example.com');
    const second = await list('sort=email&dir=asc&page=2&pageSize=3');
    expect(emails(second)).toEqual(['dan@example.com']);
    expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 });
  });

  it('answers the card counts in one call', async () => {
    const response = await t.request({ method: 'GET', url: '/api/users/stats', cookie: admin.cookie });
    expect(response.json()).toEqual({ total: 4, active: 3, disabled: 1, pending: 1 });
  });

  it('counts an account locked after failed sign-ins as disabled until its lock ends', async () => {
    const stats = async () =>
      (await t.request({ method: 'GET', url: '/api/users/stats', cookie: admin.cookie })).json();
    const carol = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'carol@example.com')
      .executeTakeFirstOrThrow();
    const lockCarol = (until: string) =>
      t.db.updateTable('users').set({ locked_until: until }).where('id', '=', carol.id).execute();
    await lockCarol(new Date(Date.now() + 600_000).toISOString());
    expect(await stats()).toEqual({ total: 4, active: 2, disabled: 2, pending: 1 });
    expect(emails(await list('status=disabled'))).toEqual(['bob@example.com', 'carol@example.com']);
    await lockCarol(new Date(Date.now() - 1000).toISOString());
    expect(await stats()).toEqual({ total: 4, active: 3, disabled: 1, pending: 1 });
  });

  it('searches text more than a thousand accounts hold as it searches a rare one, counting to "1,000+"', async () => {
    const now = nowIso();
    const crowd = Array.from({ length: 1005 }, (_, index) => ({
      id: `crowd-${index}`,
      email: `member-${String(index).padStart(4, '0')}@crowd.test`,
      password_hash: 'x',
      first_name: `Member ${String(1004 - index).padStart(4, '0')}`,
      last_name: 'Crowd',
      designation: index % 2 === 0 ? 'Analyst' : 'Hunter',
      role: 'student' as const,
      disabled: 0,
      failed_attempts: 0,
      locked_until: null,
      must_change_password: 0,
      photo_file_id: null,
      created_at: now,
      updated_at: now,
    }));
    for (let start = 0; start < crowd.length; start += 200)
      await t.db
        .insertInto('users')
        .values(crowd.slice(start, start + 200))
        .execute();
    const byName = [...crowd].sort((a, b) => a.first_name.localeCompare(b.first_name)).map((user) => user.email);

    const common = await list('search=CROWD&sort=name&dir=asc&page=2');
    expect(common).toMatchObject({ total: 1000, totalIsLowerBound: true });
    expect(emails(common)).toEqual(byName.slice(10, 20));
    const byEmail = await list('search=crowd.test&sort=email&dir=desc&pageSize=5');
    expect(emails(byEmail)).toEqual(
      crowd
        .map((user) => user.email)
        .reverse()
        .slice(0, 5),
    );

    const rare = await list('search=member-100&sort=designation&dir=desc');
    expect(rare).toMatchObject({ total: 5, totalIsLowerBound: false });
    expect(emails(rare)).toEqual([
      'member-1003@crowd.test',
      'member-1001@crowd.test',
      'member-1004@crowd.test',
      'member-1002@crowd.test',
      'member-1000@crowd.test',
    ]);
  });

  it('refuses an unknown sort column with a readable 400', async () => {
    const response = await t.request({ method: 'GET', url: '/api/users?sort=password_hash', cookie: admin.cookie });
    expect(response.statusCode).toBe(400);
  });
});

describe('PATCH /api/users/:id', () => {
  const patch = (id: string, body: unknown, cookie = admin.cookie) =>
    t.request({ method: 'PATCH', url: `/api/users/${id}`, body, cookie });

  it('edits names, designation and role, and audits exactly what changed', async () => {
    const student = await t.createUser({ email: 'sam@example.com', first_name: 'Sam', designation: 'Analyst' });
    const response = await patch(student.id, { firstName: 'Samuel', designation: 'Analyst', role: 'admin' });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ firstName: 'Samuel', role: 'admin', designation: 'Analyst' });
    const [entry] = await auditRows();
    expect(entry).toMatchObject({ actor: 'boss@example.com', action: 'edit user', screen: 'Manage Users' });
    expect(entry!.details).toBe('Edited sam@example.com: first name: "Sam" → "Samuel"; role: student → admin');
  });

  it('disabling an admin revokes their API tokens, so enabling them again does not bring the tokens back', async () => {
    const other = await t.userWithSession('admin');
    const made = await t.request({
      method: 'POST',
      url: '/api/tokens',
      cookie: other.cookie,
      body: { name: 'nightly export', scope: 'read', expiresInDays: 30 },
    });
    const token = made.json().token as string;
    expect((await patch(other.user.id, { disabled: true })).statusCode).toBe(200);
    expect((await patch(other.user.id, { disabled: false })).statusCode).toBe(200);
    const read = await t.request({
      method: 'GET',
      url: '/api/users/stats',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.statusCode).toBe(401);
    const [disabling] = (await auditRows()).filter((row) => row.action === 'edit user');
    expect(disabling!.details).toBe(`Edited ${other.user.email}: disabled: no → yes; revoked 1 API token`);
  });

  it('enabling an account clears the count of wrong second steps with the lock', async () => {
    const student = await t.createUser({
      failed_attempts: 3,
      second_step_failures: 3,
      second_step_failed_at: nowIso(),
      locked_until: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await patch(student.id, { disabled: false })).statusCode).toBe(200);
    expect(await userRow(student.id)).toMatchObject({
      failed_attempts: 0,
      second_step_failures: 0,
      second_step_failed_at: null,
      locked_until: null,
    });
  });

  it("disabling ends the user's sessions; enabling clears the failed sign-in count", async () => {
    const student = await t.userWithSession('student');
    const disabled = await patch(student.user.id, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect((await auditRows())[0]!.details).toContain('disabled: no → yes');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', cookie: student.cookie });
    expect(me.json().user).toBeNull();
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', student.user.id).execute()).toEqual([]);

    await t.db.updateTable('users').set({ failed_attempts: 3 }).where('id', '=', student.user.id).execute();
    const enabled = await patch(student.user.id, { disabled: false });
    expect(enabled.json().user.disabled).toBe(false);
    expect((await userRow(student.user.id)).failed_attempts).toBe(0);
    await expect(t.signIn(student.user.email)).resolves.toBeTruthy();
  });

  it('shows a locked account as locked and lets an admin lift the lock at once, audited', async () => {
    const lockedUntil = new Date(Date.now() + 10 * 60_000).toISOString();
    const locked = await t.createUser({ email: 'locked@example.com', failed_attempts: 3, locked_until: lockedUntil });
    const list = await t.request({ method: 'GET', url: '/api/users?search=locked%40', cookie: admin.cookie });
    expect(list.json().items).toEqual([
      expect.objectContaining({ email: 'locked@example.com', disabled: true, lockedUntil }),
    ]);
    const blocked = await t.request({ method: 'GET', url: '/api/users?status=disabled', cookie: admin.cookie });
    expect(blocked.json().items.map((user: ManagedUser) => user.email)).toEqual(['locked@example.com']);
    const stats = await t.request({ method: 'GET', url: '/api/users/stats', cookie: admin.cookie });
    expect(stats.json()).toMatchObject({ active: 1, disabled: 1 });
    const signIn = () =>
      t.request({ method: 'POST', url: '/api/auth/login', body: { email: locked.email, password: PASSWORD } });
    expect((await signIn()).statusCode).toBe(403);

    const lifted = await patch(locked.id, { disabled: false });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json().user).toMatchObject({ disabled: false, lockedUntil: null });
    expect(await userRow(locked.id)).toMatchObject({ failed_attempts: 0, locked_until: null, disabled: 0 });
    expect((await auditRows()).at(-1)!.details).toBe('Edited locked@example.com: sign-in lock lifted');
    expect((await signIn()).statusCode).toBe(200);
  });

  it('refuses an admin disabling or demoting themself, and changes nothing', async () => {
    const disable = await patch(admin.user.id, { disabled: true });
    expect(disable.statusCode).toBe(409);
    expect(disable.json().error).toBe(USER_EDIT_MESSAGES.selfDisable);
    const demote = await patch(admin.user.id, { role: 'student' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error).toBe(USER_EDIT_MESSAGES.selfDemote);
    expect((await userRow(admin.user.id)).role).toBe('admin');
    expect(await auditRows()).toEqual([]);
    // Their own name is theirs to fix.
    expect((await patch(admin.user.id, { lastName: 'Lovelace' })).statusCode).toBe(200);
  });

  it('keeps the last active admin: two admins demoting each other at once leave one admin', async () => {
    // Straight at the service, so both edits are surely in flight together (the API's access check would
    // otherwise sometimes refuse the second admin first).
    const other = await t.createUser({ role: 'admin' });
    const results = await Promise.allSettled([
      updateUser(t.db, admin.user, other.id, { role: 'student' }),
      updateUser(t.db, other, admin.user.id, { disabled: true }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ statusCode: 409, message: USER_EDIT_MESSAGES.lastAdmin });
    const activeAdmins = await t.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .execute();
    expect(activeAdmins).toHaveLength(1);
    expect(await auditRows()).toHaveLength(1);
  });

  it("refuses a demoted admin's second edit through the API even when both requests race", async () => {
    const other = await t.userWithSession('admin');
    const [first, second] = await Promise.all([
      patch(other.user.id, { role: 'student' }, admin.cookie),
      patch(admin.user.id, { disabled: true }, other.cookie),
    ]);
    expect([first.statusCode, second.statusCode].filter((status) => status === 200)).toHaveLength(1);
    expect([403, 409]).toContain(first.statusCode === 200 ? second.statusCode : first.statusCode);
    const activeAdmins = await t.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .execute();
    expect(activeAdmins).toHaveLength(1);
  });

  it('lets an admin demote or disable another admin while one stays active', async () => {
    const other = await t.createUser({ role: 'admin' });
    const response = await patch(other.id, { role: 'student', disabled: true });
    expect(response.statusCode).toBe(200);
    expect((await auditRows())[0]!.details).toContain('role: admin → student; disabled: no → yes');
  });

  it('refuses pending users, unknown ids, empty and invalid bodies', async () => {
    const pending = await t.createUser({ role: 'pending' });
    const pendingEdit = await patch(pending.id, { role: 'student' });
    expect(pendingEdit.statusCode).toBe(409);
    expect(pendingEdit.json().error).toBe(USER_EDIT_MESSAGES.stillPending);
    expect((await patch('no-such-user', { firstName: 'X' })).statusCode).toBe(404);
    const empty = await patch(pending.id, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Nothing to change.');
    expect((await patch(pending.id, { role: 'pending' })).statusCode).toBe(400);
    expect((await patch(pending.id, { firstName: '' })).statusCode).toBe(400);
    expect((await patch(pending.id, { email: 'x@example.com' })).statusCode).toBe(400);
  });

  it('writes the change and its audit entry in one transaction: when the audit write fails, nothing changes', async () => {
    const student = await t.createUser({ role: 'student' });
    await sql`drop table audit_log`.execute(t.db);
    allowUndeclaredStatus(500); // the broken database is the point
    const response = await patch(student.id, { role: 'admin', firstName: 'Changed' });
    expect(response.statusCode).toBe(500);
    const after = await userRow(student.id);
    expect(after.role).toBe('student');
    expect(after.first_name).toBe(student.first_name);
  });
});

describe('GET /api/users/dashboard-stats', () => {
  it('counts pending users, active users, runs this week and failed sign-ins today', async () => {
    await t.createUser({ role: 'pending' });
    await t.createUser({ role: 'student', disabled: 1 });
    const student = await t.createUser({ role: 'student' });
    const now = nowIso();
    await t.db
      .insertInto('scenarios')
      .values({
        id: 'stats-scenario',
        name: 'Stats',
        type: 'Phishing',
        difficulty: 1,
        description: 'd',
        definition: '{}',
        step_count: 1,
        origin: 'builtin',
        content_hash: 'x',
        source_file_id: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
    const run = (startedAt: string, status: 'in_progress' | 'ended') => ({
      id: randomUUID(),
      user_id: student.id,
      scenario_id: 'stats-scenario',
      scenario_name: 'Stats',
      step_count: 1,
      current_step_id: 'a',
      current_answered: 0,
      last_option_index: null,
      finished_at: null,
      score_thousandths: 0,
      percent_base: 1,
      played_steps: 0,
      best_path_steps: 1,
      pending_reviews: 0,
      hint_opened: 0,
      visit_submitted: 0,
      last_credit_thousandths: null,
      status,
      started_at: startedAt,
      updated_at: startedAt,
    });
    // A trainee has one run in progress per scenario: the older one was ended.
    await t.db
      .insertInto('runs')
      .values([run(now, 'in_progress'), run(new Date(Date.now() - 8 * 86_400_000).toISOString(), 'ended')])
      .execute();
    await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: student.email, password: 'Wrong!Pass1' },
    });

    const response = await t.request({ method: 'GET', url: '/api/users/dashboard-stats', cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ pending: 1, activeUsers: 2, runsThisWeek: 1, failedSignInsToday: 1 });
  });
});

describe('the dashboard account counts', () => {
  const cards = async () => {
    const response = await t.request({ method: 'GET', url: '/api/users/dashboard-stats', cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    const { pending, activeUsers } = response.json() as { pending: number; activeUsers: number };
    return { pending, activeUsers };
  };
  /** The same counts taken from the accounts themselves. */
  const counted = async () => {
    const users = await t.db.selectFrom('users').select(['role', 'disabled']).execute();
    return {
      pending: users.filter((user) => user.role === 'pending').length,
      activeUsers: users.filter((user) => user.role !== 'pending' && user.disabled === 0).length,
    };
  };

  it('follow every registration, approval, rejection, disabling, role change and deletion', async () => {
    const request = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) =>
      t.request({ method, url, body, cookie: admin.cookie });
    const seen: { pending: number; activeUsers: number }[] = [];
    const check = async () => {
      const shown = await cards();
      expect(shown).toEqual(await counted());
      seen.push(shown);
    };
    await check();
    const first = await t.createUser({ role: 'pending' });
    const second = await t.createUser({ role: 'pending' });
    const student = await t.createUser({ role: 'student' });
    await check();
    expect((await request('POST', `/api/users/${first.id}/approve`, { role: 'student' })).statusCode).toBe(200);
    await check();
    expect((await request('DELETE', `/api/users/${second.id}`)).statusCode).toBe(200);
    await check();
    expect((await request('PATCH', `/api/users/${student.id}`, { disabled: true })).statusCode).toBe(200);
    await check();
    expect((await request('PATCH', `/api/users/${first.id}`, { role: 'admin' })).statusCode).toBe(200);
    await check();
    // One statement writing several accounts at once.
    await t.db
      .updateTable('users')
      .set({ disabled: 1 })
      .where('role', '=', 'admin')
      .where('id', '!=', admin.user.id)
      .execute();
    await check();
    await t.db.updateTable('users').set({ disabled: 0 }).execute();
    await check();
    await t.db.deleteFrom('users').where('id', '!=', admin.user.id).execute();
    await check();
    expect(seen).toEqual([
      { pending: 0, activeUsers: 1 },
      { pending: 2, activeUsers: 2 },
      { pending: 1, activeUsers: 3 },
      { pending: 0, activeUsers: 3 },
      { pending: 0, activeUsers: 2 },
      { pending: 0, activeUsers: 2 },
      { pending: 0, activeUsers: 1 },
      { pending: 0, activeUsers: 3 },
      { pending: 0, activeUsers: 1 },
    ]);
  });
});
