import { AUTH_MESSAGES, PASSWORD_RULE_MESSAGE, SECOND_FACTOR_MESSAGES, SPRAY_ACCOUNTS } from '@tradecraft/shared';
import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';
import { SECOND_FACTOR_DUE } from '../../plugins/access';
import { PENDING_COOKIE } from '../../plugins/session-cookie';
import { resetPassword } from '../../bootstrap';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const login = (email: string, password = PASSWORD, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: '/api/auth/login', body: { email, password }, headers });

const cookieOf = (response: { cookies: { name: string; value: string }[] }, name: string) =>
  response.cookies.find((cookie) => cookie.name === name)?.value;

/** Enrols an authenticator app for the signed-in cookie; returns the secret and the recovery codes. */
async function enrolTotp(cookie: string): Promise<{ secret: string; recoveryCodes: string[] | null }> {
  const started = await t.request({ method: 'POST', url: '/api/security/totp', cookie });
  expect(started.statusCode).toBe(200);
  const { secret } = started.json();
  const confirmed = await t.request({
    method: 'POST',
    url: '/api/security/totp/confirm',
    cookie,
    body: { code: await generate({ secret }), label: 'Phone' },
  });
  expect(confirmed.statusCode).toBe(201);
  return { secret, recoveryCodes: confirmed.json().recoveryCodes };
}

/** Signs in with the password only: returns the pending cookie of the second step. */
async function passwordStep(email: string): Promise<string> {
  const response = await login(email);
  expect(response.statusCode).toBe(200);
  expect(response.json()).toMatchObject({ user: null, secondStep: { methods: ['totp', 'recovery'] } });
  expect(cookieOf(response, SESSION_COOKIE)).toBeUndefined();
  return cookieOf(response, PENDING_COOKIE)!;
}

const secondStep = (pending: string, code: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/login/code',
    body: { code },
    headers: { cookie: `${PENDING_COOKIE}=${pending}` },
  });

const events = async (email: string) =>
  (await t.db.selectFrom('login_events').select('event').where('email', '=', email).orderBy('id').execute()).map(
    (row) => row.event,
  );

describe('passphrases', () => {
  it('accepts spaces, punctuation and Unicode when upper, lower, number and special are all there', async () => {
    let { cookie } = await t.userWithSession('student');
    let currentPassword = PASSWORD;
    for (const newPassword of ['Correct horse battery staple 42!', 'Ünïcödé paßwort 7 €', 'Tab\tand,comma 9']) {
      const response = await t.request({
        method: 'POST',
        url: '/api/auth/password',
        cookie,
        body: { currentPassword, newPassword, confirmPassword: newPassword },
      });
      expect(response.statusCode, newPassword).toBe(200);
      currentPassword = newPassword;
      cookie = cookieOf(response, SESSION_COOKIE)!;
    }
  });

  it('still refuses a passphrase without an upper case letter, with the rule message', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { firstName: 'A', lastName: 'B', email: 'pass@example.com', password: 'correct horse battery staple 42!' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(PASSWORD_RULE_MESSAGE);
  });
});

describe('one-time codes', () => {
  it('enrolling gives ten recovery codes once and makes sign-in ask for a code', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { recoveryCodes } = await enrolTotp(cookie);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await t.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored.map((row) => row.code_hash)).not.toContain(recoveryCodes![0]);
    const security = await t.request({ method: 'GET', url: '/api/security', cookie });
    expect(security.json()).toMatchObject({ recoveryCodesLeft: 10, factors: [{ kind: 'totp', label: 'Phone' }] });
    await passwordStep(user.email);
    expect(await events(user.email)).toContain('second_factor_added');
  });

  it('refuses a wrong code at enrolment and keeps the secret for another try', async () => {
    const { cookie } = await t.userWithSession('student');
    const { secret } = (await t.request({ method: 'POST', url: '/api/security/totp', cookie })).json();
    const wrong = await t.request({
      method: 'POST',
      url: '/api/security/totp/confirm',
      cookie,
      body: { code: '000000', label: 'Phone' },
    });
    expect(wrong.statusCode).toBe(400);
    const right = await t.request({
      method: 'POST',
      url: '/api/security/totp/confirm',
      cookie,
      body: { code: await generate({ secret }), label: 'Phone' },
    });
    expect(right.statusCode).toBe(201);
  });

  it('the right code completes the sign-in; the same code does not work twice', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { secret } = await enrolTotp(cookie);
    // The enrolment used the current step's code: the next code is for a later step or it is refused.
    const pending = await passwordStep(user.email);
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const done = await secondStep(pending, code);
    expect(done.statusCode).toBe(200);
    expect(done.json().user.email).toBe(user.email);
    expect(cookieOf(done, SESSION_COOKIE)).toBeTruthy();
    const again = await secondStep(await passwordStep(user.email), code);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe(SECOND_FACTOR_MESSAGES.wrongCode);
  });

  it('without a waiting sign-in the second step answers 400 and opens nothing', async () => {
    const response = await secondStep('x'.repeat(43), '123456');
    expect(response.statusCode).toBe(400);
    expect(cookieOf(response, SESSION_COOKIE)).toBeUndefined();
    expect(response.json().error).toBe(SECOND_FACTOR_MESSAGES.expired);
  });

  it('wrong codes count toward the lockout: the third locks with the product message and tells every admin', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const admin = await t.createUser({ role: 'admin' });
    await enrolTotp(cookie);
    const pending = await passwordStep(user.email);
    // Each wrong code makes the next wait a little (account-security.test.ts); the test does not wait for it.
    const backoffOver = () =>
      t.db
        .updateTable('users')
        .set({ second_step_failed_at: new Date(Date.now() - 60 * 60_000).toISOString() })
        .where('id', '=', user.id)
        .execute();
    expect((await secondStep(pending, '000000')).statusCode).toBe(401);
    await backoffOver();
    expect((await secondStep(pending, '000001')).statusCode).toBe(401);
    await backoffOver();
    const third = await secondStep(pending, '000002');
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe(AUTH_MESSAGES.disabled);
    expect((await login(user.email)).json().error).toBe(AUTH_MESSAGES.disabled);
    const notes = await t.db.selectFrom('notifications').selectAll().where('recipient_id', '=', admin.id).execute();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'account-locked', link: `/admin/users?unlock=${user.id}` });
    expect(await events(user.email)).toContain('failed_second_factor');
  });
});

describe('recovery codes', () => {
  it('each works once in place of a code, and its use is logged', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { recoveryCodes } = await enrolTotp(cookie);
    const code = recoveryCodes![3]!;
    const used = await secondStep(await passwordStep(user.email), code.toUpperCase());
    expect(used.statusCode).toBe(200);
    expect(await events(user.email)).toContain('recovery_code_used');
    const audit = await t.db.selectFrom('audit_log').select('action').where('actor', '=', user.email).execute();
    expect(audit.map((row) => row.action)).toEqual(['add second factor', 'use recovery code']);
    const reused = await secondStep(await passwordStep(user.email), code);
    expect(reused.statusCode).toBe(401);
    const security = await t.request({ method: 'GET', url: '/api/security', cookie: cookieOf(used, SESSION_COOKIE) });
    expect(security.json().recoveryCodesLeft).toBe(9);
  });

  it('renewing replaces all ten; removing the last factor removes them and the second step', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { recoveryCodes } = await enrolTotp(cookie);
    const renewed = await t.request({ method: 'POST', url: '/api/security/recovery-codes', cookie });
    expect(renewed.json().recoveryCodes).toHaveLength(10);
    expect(renewed.json().recoveryCodes).not.toContain(recoveryCodes![0]);
    const { factors } = (await t.request({ method: 'GET', url: '/api/security', cookie })).json();
    const removed = await t.request({ method: 'DELETE', url: `/api/security/factors/${factors[0].id}`, cookie });
    expect(removed.statusCode).toBe(200);
    expect(await t.db.selectFrom('recovery_codes').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    expect((await login(user.email)).json().user.email).toBe(user.email);
    expect(await events(user.email)).toContain('second_factor_removed');
    const audit = await t.db.selectFrom('audit_log').select('details').where('actor', '=', user.email).execute();
    expect(audit.map((row) => row.details)).toEqual([
      'Added an authenticator app "Phone"',
      'Renewed their 10 recovery codes (the old ones no longer work)',
      'Removed an authenticator app "Phone"',
    ]);
  });

  it('the admin command that resets a password also removes lost factors and codes', async () => {
    const { user, cookie } = await t.userWithSession('student');
    await enrolTotp(cookie);
    await resetPassword(t.db, user.email, PASSWORD);
    expect(await t.db.selectFrom('second_factors').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('recovery_codes').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    expect((await login(user.email)).json().user.email).toBe(user.email);
  });

  it("one person cannot remove another's factor", async () => {
    const owner = await t.userWithSession('student');
    await enrolTotp(owner.cookie);
    const { factors } = (await t.request({ method: 'GET', url: '/api/security', cookie: owner.cookie })).json();
    const other = await t.userWithSession('admin');
    const response = await t.request({
      method: 'DELETE',
      url: `/api/security/factors/${factors[0].id}`,
      cookie: other.cookie,
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('second-factor policy', () => {
  it('is off by default; only admins set it; it is audited', async () => {
    const admin = await t.userWithSession('admin');
    const student = await t.userWithSession('student');
    expect(
      (await t.request({ method: 'GET', url: '/api/settings/second-factor-policy', cookie: admin.cookie })).json(),
    ).toEqual({ policy: 'off' });
    const refused = await t.request({
      method: 'PUT',
      url: '/api/settings/second-factor-policy',
      cookie: student.cookie,
      body: { policy: 'everyone' },
    });
    expect(refused.statusCode).toBe(403);
    const set = await t.request({
      method: 'PUT',
      url: '/api/settings/second-factor-policy',
      cookie: admin.cookie,
      body: { policy: 'admins' },
    });
    expect(set.json()).toEqual({ policy: 'admins' });
    const audit = await t.db.selectFrom('audit_log').select('action').execute();
    expect(audit.map((row) => row.action)).toContain('set second-factor policy');
  });

  it('tells a person it applies to who has no factor to enrol, and no one else', async () => {
    const admin = await t.userWithSession('admin');
    await t.request({
      method: 'PUT',
      url: '/api/settings/second-factor-policy',
      cookie: admin.cookie,
      body: { policy: 'admins' },
    });
    const otherAdmin = await t.createUser({ role: 'admin' });
    const student = await t.createUser({ role: 'student' });
    expect((await login(otherAdmin.email)).json().mustEnrol).toBe(true);
    expect((await login(student.email)).json().mustEnrol).toBeUndefined();
    const security = await t.request({ method: 'GET', url: '/api/security', cookie: admin.cookie });
    expect(security.json()).toMatchObject({ policy: 'admins', required: true });
  });
});

describe('the second-factor policy on the server', () => {
  async function requireForAdmins() {
    const admin = await t.userWithSession('admin');
    await t.request({
      method: 'PUT',
      url: '/api/settings/second-factor-policy',
      cookie: admin.cookie,
      body: { policy: 'admins' },
    });
  }
  const sessionOf = (response: { cookies: { name: string; value: string }[] }) =>
    response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)!.value;

  it('holds a covered admin without a factor to enrolling: other routes answer 403 until one is added', async () => {
    await requireForAdmins();
    const admin = await t.createUser({ role: 'admin' });
    const cookie = sessionOf(await login(admin.email));
    const refused = await t.request({ method: 'GET', url: '/api/users', cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(SECOND_FACTOR_DUE);
    expect((await t.request({ method: 'GET', url: '/api/security', cookie })).statusCode).toBe(200);
    await enrolTotp(cookie);
    expect((await t.request({ method: 'GET', url: '/api/users', cookie })).statusCode).toBe(200);
  });

  it('keeps holding the session back when its password is changed before enrolling', async () => {
    await requireForAdmins();
    const admin = await t.createUser({ role: 'admin' });
    const cookie = sessionOf(await login(admin.email));
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/password',
      cookie,
      body: { currentPassword: PASSWORD, newPassword: 'N3w!Passphrase', confirmPassword: 'N3w!Passphrase' },
    });
    expect(changed.statusCode).toBe(200);
    const replaced = sessionOf(changed);
    expect((await t.request({ method: 'GET', url: '/api/users', cookie: replaced })).json().error).toBe(
      SECOND_FACTOR_DUE,
    );
  });

  it('leaves people the policy does not cover alone', async () => {
    await requireForAdmins();
    const student = await t.createUser({ role: 'student' });
    const cookie = sessionOf(await login(student.email));
    expect((await t.request({ method: 'GET', url: '/api/sim/list', cookie })).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('lists the sessions with the device and marks the current one', async () => {
    const user = await t.createUser();
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:130.0) Gecko/20100101 Firefox/130.0';
    await login(user.email, PASSWORD, { 'user-agent': firefox });
    const cookie = await t.signIn(user.email);
    const response = await t.request({ method: 'GET', url: '/api/security/sessions', cookie });
    const { sessions } = response.json();
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    expect(sessions.map((session: { device: string }) => session.device)).toContain('Firefox on Windows');
  });

  it('ends one other session, refuses the current one, and ends all others', async () => {
    const user = await t.createUser();
    const first = await t.signIn(user.email);
    const second = await t.signIn(user.email);
    const third = await t.signIn(user.email);
    const { sessions } = (await t.request({ method: 'GET', url: '/api/security/sessions', cookie: first })).json();
    const current = sessions.find((session: { current: boolean }) => session.current);
    const other = sessions.find((session: { current: boolean }) => !session.current);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/security/sessions/${current.id}`, cookie: first })).statusCode,
    ).toBe(400);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/security/sessions/${other.id}`, cookie: first })).statusCode,
    ).toBe(200);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/security/sessions/${other.id}`, cookie: first })).statusCode,
    ).toBe(404);
    await t.request({ method: 'POST', url: '/api/security/sessions/end-others', cookie: first });
    for (const cookie of [second, third]) {
      expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie })).json().user).toBeNull();
    }
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: first })).json().user.id).toBe(user.id);
  });

  it('an admin ends every session of a user from Manage Users (audited)', async () => {
    const admin = await t.userWithSession('admin');
    const { user, cookie } = await t.userWithSession('student');
    const response = await t.request({
      method: 'POST',
      url: `/api/users/${user.id}/end-sessions`,
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie })).json().user).toBeNull();
    const missing = await t.request({ method: 'POST', url: '/api/users/nobody/end-sessions', cookie: admin.cookie });
    expect(missing.statusCode).toBe(404);
    const audit = await t.db.selectFrom('audit_log').select('details').where('action', '=', 'end sessions').execute();
    expect(audit).toEqual([{ details: `Ended every session of ${user.email}` }]);
  });
});

describe('lockout notice', () => {
  it('three wrong passwords tell every admin once, with a link that lifts the lock', async () => {
    const admins = [await t.createUser({ role: 'admin' }), await t.createUser({ role: 'admin' })];
    const user = await t.createUser();
    for (let i = 0; i < 3; i++) await login(user.email, 'Wrong-pass-1!');
    const notes = await t.db.selectFrom('notifications').select(['recipient_id', 'kind', 'message']).execute();
    expect(
      notes
        .filter((note) => note.kind === 'account-locked')
        .map((note) => note.recipient_id)
        .sort(),
    ).toEqual(admins.map((admin) => admin.id).sort());
    expect(notes[0]!.message).toContain(user.email);
  });
});

describe('password spraying', () => {
  // A hundred password checks: longer than the default test time on a busy machine.
  it(
    'an address failing on many accounts hears 429 for wrong passwords, still signs in right ones, and is listed',
    { timeout: 180_000 },
    async () => {
      const admin = await t.userWithSession('admin');
      // Every injected request comes from 127.0.0.1.
      const users = await Promise.all(Array.from({ length: SPRAY_ACCOUNTS }, () => t.createUser()));
      const statuses: number[] = [];
      for (const user of users) statuses.push((await login(user.email, 'Wrong-pass-1!')).statusCode);
      expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      const next = await t.createUser();
      const wrong = await login(next.email, 'Wrong-pass-1!');
      expect(wrong.statusCode).toBe(429);
      expect(wrong.json().error).toBe(SECOND_FACTOR_MESSAGES.sprayThrottled);
      // A right password is never refused for other accounts' failures.
      expect((await login(users[0]!.email)).statusCode).toBe(200);
      const listed = await t.request({ method: 'GET', url: '/api/logs/password-spraying', cookie: admin.cookie });
      expect(listed.json().addresses).toEqual([
        expect.objectContaining({ accounts: SPRAY_ACCOUNTS + 1, failures: SPRAY_ACCOUNTS + 1, throttled: true }),
      ]);
    },
  );
});
