import {
  AUTH_MESSAGES,
  REAUTHENTICATION_MESSAGES,
  REAUTHENTICATION_REQUIRED,
  REAUTHENTICATION_WINDOW_MS,
  SECOND_FACTOR_MESSAGES,
} from '@tradecraft/shared';
import { generate } from 'otplib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/helper';
import { API_TOKEN_MESSAGES } from '../../plugins/access';
import { PENDING_COOKIE } from '../../plugins/session-cookie';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

// docs/security.md: the second step's own failure count, the lock that leaves sessions and tokens alone, the
// address-and-account throttle, and the re-authentication that account-security changes need.

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const login = (email: string, password = PASSWORD) =>
  t.request({ method: 'POST', url: '/api/auth/login', body: { email, password } });

const cookieOf = (response: { cookies: { name: string; value: string }[] }, name: string) =>
  response.cookies.find((cookie) => cookie.name === name)?.value;

/** Enrols an authenticator app for the signed-in cookie; returns its secret and the recovery codes. */
async function enrolTotp(cookie: string) {
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
  return { secret: secret as string, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}

/** The right password: the pending cookie of the second step. */
async function passwordStep(email: string): Promise<string> {
  const response = await login(email);
  expect(response.statusCode).toBe(200);
  expect(response.json().user).toBeNull();
  return cookieOf(response, PENDING_COOKIE)!;
}

const secondStep = (pending: string, code: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/login/code',
    body: { code },
    headers: { cookie: `${PENDING_COOKIE}=${pending}` },
  });

/** A later step's code: the enrolment used the current one, and a step is accepted once. */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

/** The backoff after a wrong second step has run out (the test does not wait for it). */
const backoffOver = (userId: string) =>
  t.db
    .updateTable('users')
    .set({ second_step_failed_at: new Date(Date.now() - 60 * 60_000).toISOString() })
    .where('id', '=', userId)
    .execute();

const secondStepRow = (userId: string) =>
  t.db
    .selectFrom('users')
    .select(['second_step_failures', 'locked_until'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();

async function adminWithToken(scope: 'read' | 'read-write' = 'read-write') {
  const { user, cookie } = await t.userWithSession('admin');
  const response = await t.request({
    method: 'POST',
    url: '/api/tokens',
    cookie,
    body: { name: 'nightly export', scope, expiresInDays: 30 },
  });
  expect(response.statusCode).toBe(201);
  return { user, cookie, token: response.json().token as string };
}

const withToken = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
  t.request({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body !== undefined ? { body } : {}) });

describe('the second step cannot be guessed by someone who knows the password', () => {
  it('counts wrong codes across sign-ins: a right password does not reset the count, and the third locks', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const admin = await t.createUser({ role: 'admin' });
    await enrolTotp(cookie);
    for (const code of ['000000', '000001']) {
      const wrong = await secondStep(await passwordStep(user.email), code);
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error).toBe(SECOND_FACTOR_MESSAGES.wrongCode);
      await backoffOver(user.id);
    }
    const third = await secondStep(await passwordStep(user.email), '000002');
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe(AUTH_MESSAGES.disabled);
    expect(Date.parse((await secondStepRow(user.id)).locked_until!)).toBeGreaterThan(Date.now());
    expect((await login(user.email)).json().error).toBe(AUTH_MESSAGES.disabled);
    const notes = await t.db.selectFrom('notifications').selectAll().where('recipient_id', '=', admin.id).execute();
    expect(notes.map((note) => note.kind)).toEqual(['account-locked']);
  });

  it('makes the next code wait after a wrong one (429 with Retry-After), without counting the refused try', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { secret } = await enrolTotp(cookie);
    const pending = await passwordStep(user.email);
    expect((await secondStep(pending, '000000')).statusCode).toBe(401);
    const hurried = await secondStep(pending, await nextCode(secret));
    expect(hurried.statusCode).toBe(429);
    expect(hurried.json().error).toMatch(/^Wait \d+ seconds? before trying another code/);
    expect(Number(hurried.headers['retry-after'])).toBeGreaterThan(0);
    expect((await secondStepRow(user.id)).second_step_failures).toBe(1);
    await backoffOver(user.id);
    expect((await secondStep(pending, await nextCode(secret))).statusCode).toBe(200);
  });

  it('starts the count again only when a sign-in is completed', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { secret } = await enrolTotp(cookie);
    expect((await secondStep(await passwordStep(user.email), '000000')).statusCode).toBe(401);
    await backoffOver(user.id);
    // The right password alone leaves the count as it is.
    const pending = await passwordStep(user.email);
    expect((await secondStepRow(user.id)).second_step_failures).toBe(1);
    expect((await secondStep(pending, await nextCode(secret))).statusCode).toBe(200);
    expect((await secondStepRow(user.id)).second_step_failures).toBe(0);
  });

  it('after the lock lifts, checks one more code: a wrong one locks again, a right one signs in', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { secret } = await enrolTotp(cookie);
    // The lock period has passed since the third wrong code.
    const lockLapsed = () =>
      t.db
        .updateTable('users')
        .set({
          locked_until: new Date(Date.now() - 1000).toISOString(),
          second_step_failed_at: new Date(Date.now() - 60 * 60_000).toISOString(),
        })
        .where('id', '=', user.id)
        .execute();
    await t.db.updateTable('users').set({ second_step_failures: 3 }).where('id', '=', user.id).execute();
    await lockLapsed();
    const again = await secondStep(await passwordStep(user.email), '000000');
    expect(again.statusCode).toBe(403);
    expect(Date.parse((await secondStepRow(user.id)).locked_until!)).toBeGreaterThan(Date.now());
    await lockLapsed();
    expect((await secondStep(await passwordStep(user.email), await nextCode(secret))).statusCode).toBe(200);
  });

  it('checks one try per lock period at the threshold: another within the period is refused unchecked', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { secret } = await enrolTotp(cookie);
    // The third wrong code was a moment ago, and the lock it set has been cut short: the period's try is taken.
    await t.db
      .updateTable('users')
      .set({ second_step_failures: 3, second_step_failed_at: new Date().toISOString(), locked_until: null })
      .where('id', '=', user.id)
      .execute();
    const refused = await secondStep(await passwordStep(user.email), await nextCode(secret));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(AUTH_MESSAGES.disabled);
  });

  it('limits second steps per account, whatever their answer', async () => {
    const { user, cookie } = await t.userWithSession('student');
    await enrolTotp(cookie);
    const pending = await passwordStep(user.email);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await secondStep(pending, '000000')).statusCode);
    expect(statuses[0]).toBe(401);
    const limited = await secondStep(pending, '000000');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('Too many sign-in codes for this account. Please wait 15 minutes and try again.');
  });

  it('limits second steps per address', async () => {
    for (let i = 0; i < 120; i++) expect((await secondStep('no-such-sign-in', '000000')).statusCode).toBe(400);
    const limited = await secondStep('no-such-sign-in', '000000');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/Too many sign-in codes from your network/);
  });
});

describe('three wrong passwords lock only new password sign-ins', () => {
  it("leaves the account's sessions and API tokens working while its right password is refused", async () => {
    const { user, cookie, token } = await adminWithToken('read');
    for (let i = 0; i < 3; i++) await login(user.email, 'Wrong-pass-1!');
    expect((await login(user.email)).json().error).toBe(AUTH_MESSAGES.disabled);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', cookie });
    expect(me.json().user.id).toBe(user.id);
    expect((await withToken(token, 'GET', '/api/users/stats')).statusCode).toBe(200);
  });

  it('refuses a right password from an address only for its own pair: other accounts there sign in', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => t.createUser()));
    // Twelve accounts fail from one address (a class mistyping)...
    for (const user of users) expect((await login(user.email, 'Wrong-pass-1!')).statusCode).toBe(401);
    // ...and each still signs in with its right password from there.
    for (const user of users) expect((await login(user.email)).statusCode).toBe(200);
  });

  it('backs off a failing pair of address and account, and no other', async () => {
    for (let i = 0; i < 10; i++) await login('ghost@example.com', `Wrong-pass-${i}!`);
    const limited = await login('ghost@example.com', 'Wrong-pass-x!');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/Too many sign-in attempts for this account/);
    const other = await t.createUser();
    expect((await login(other.email)).statusCode).toBe(200);
  });
});

describe('account-security routes', () => {
  it('refuse API tokens, reading or changing, and change nothing', async () => {
    const { user, token } = await adminWithToken();
    const calls: [method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', '/api/security'],
      ['GET', '/api/security/sessions'],
      ['POST', '/api/security/recovery-codes'],
      ['POST', '/api/security/totp'],
      ['DELETE', '/api/security/factors/any'],
      ['POST', '/api/security/sessions/end-others', {}],
      [
        'POST',
        '/api/auth/password',
        { currentPassword: PASSWORD, newPassword: 'N3w!password', confirmPassword: 'N3w!password' },
      ],
      ['POST', '/api/auth/reauthenticate', { password: PASSWORD }],
    ];
    for (const [method, url, body] of calls) {
      const response = await withToken(token, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error).toBe(API_TOKEN_MESSAGES.accountSecurity);
    }
    expect(await t.db.selectFrom('recovery_codes').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
  });

  it('need the password or a code again after ten minutes: 403 reauthentication-required until it is given', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const { secret } = await enrolTotp(cookie);
    const [factor] = await t.db.selectFrom('second_factors').select('id').where('user_id', '=', user.id).execute();
    const stale = new Date(Date.now() - REAUTHENTICATION_WINDOW_MS - 1000).toISOString();
    await t.db.updateTable('sessions').set({ authenticated_at: stale }).where('user_id', '=', user.id).execute();

    const removal = await t.request({ method: 'DELETE', url: `/api/security/factors/${factor!.id}`, cookie });
    expect(removal.statusCode).toBe(403);
    expect(removal.json()).toEqual({ error: REAUTHENTICATION_MESSAGES.required, code: REAUTHENTICATION_REQUIRED });
    const renewal = await t.request({ method: 'POST', url: '/api/security/recovery-codes', cookie });
    expect(renewal.json().code).toBe(REAUTHENTICATION_REQUIRED);
    expect(await t.db.selectFrom('second_factors').select('id').where('user_id', '=', user.id).execute()).toHaveLength(
      1,
    );
    // Reading stays open.
    expect((await t.request({ method: 'GET', url: '/api/security', cookie })).statusCode).toBe(200);

    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/reauthenticate',
      cookie,
      body: { password: 'Wrong-pass-1!' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(REAUTHENTICATION_MESSAGES.wrongPassword);
    const byCode = await t.request({
      method: 'POST',
      url: '/api/auth/reauthenticate',
      cookie,
      body: { code: await nextCode(secret) },
    });
    expect(byCode.statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/security/factors/${factor!.id}`, cookie })).statusCode).toBe(
      200,
    );
  });

  it('open again for ten minutes after the password is given', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const stale = new Date(Date.now() - REAUTHENTICATION_WINDOW_MS - 1000).toISOString();
    await t.db.updateTable('sessions').set({ authenticated_at: stale }).where('user_id', '=', user.id).execute();
    const ended = await t.request({ method: 'POST', url: '/api/security/sessions/end-others', cookie, body: {} });
    expect(ended.json().code).toBe(REAUTHENTICATION_REQUIRED);
    const confirmed = await t.request({
      method: 'POST',
      url: '/api/auth/reauthenticate',
      cookie,
      body: { password: PASSWORD },
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/security/sessions/end-others', cookie })).statusCode).toBe(
      200,
    );
  });

  it('audit renewing recovery codes and ending sessions, and tell the owner in the bell', async () => {
    const { user, cookie } = await t.userWithSession('student');
    await t.signIn(user.email);
    await enrolTotp(cookie);
    expect((await t.request({ method: 'POST', url: '/api/security/recovery-codes', cookie })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/security/sessions/end-others', cookie })).statusCode).toBe(
      200,
    );
    const audit = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('actor', '=', user.email)
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['add second factor', 'renew recovery codes', 'end own sessions']);
    const bell = await t.db
      .selectFrom('notifications')
      .select(['kind', 'message'])
      .where('recipient_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(bell.map((note) => note.kind)).toEqual(['account-security', 'account-security', 'account-security']);
    expect(bell.map((note) => note.message.split('.')[0])).toEqual([
      'An authenticator app "Phone" was added to your account',
      'New recovery codes were made for your account; the old ones no longer work',
      'All your other sessions were ended',
    ]);
  });

  it('tell the owner when a factor is removed', async () => {
    const { user, cookie } = await t.userWithSession('student');
    await enrolTotp(cookie);
    const [factor] = await t.db.selectFrom('second_factors').select('id').where('user_id', '=', user.id).execute();
    await t.request({ method: 'DELETE', url: `/api/security/factors/${factor!.id}`, cookie });
    const bell = await t.db.selectFrom('notifications').select('message').where('recipient_id', '=', user.id).execute();
    expect(bell.at(-1)!.message).toMatch(/^An authenticator app "Phone" was removed from your account\./);
  });

  it('keep a wrong password at re-authentication counted: the third ends the session', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const attempt = () =>
      t.request({ method: 'POST', url: '/api/auth/reauthenticate', cookie, body: { password: 'Wrong-pass-1!' } });
    expect((await attempt()).statusCode).toBe(400);
    expect((await attempt()).statusCode).toBe(400);
    expect((await attempt()).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie })).json().user).toBeNull();
    expect((await login(user.email)).json().error).toBe(AUTH_MESSAGES.disabled);
  });
});

describe('a new session', () => {
  it('counts its sign-in as the re-authentication', async () => {
    const user = await t.createUser();
    const response = await login(user.email);
    const row = await t.db
      .selectFrom('sessions')
      .select('authenticated_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(cookieOf(response, SESSION_COOKIE)).toBeTruthy();
    expect(Date.now() - Date.parse(row.authenticated_at!)).toBeLessThan(REAUTHENTICATION_WINDOW_MS);
  });
});
