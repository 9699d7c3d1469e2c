import { AUTH_MESSAGES, NEW_PASSWORD_RULE_MESSAGE, PASSWORD_RULE_MESSAGE, PASSWORDS_DO_NOT_MATCH_MESSAGE } from '@tradecraft/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

const registration = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  designation: 'Threat Analyst',
  email: '  Ada.Lovelace@Example.COM ',
  password: 'Analyst!2026',
};

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const login = (email: string, password: string, headers?: Record<string, string>) =>
  t.request({ method: 'POST', url: '/api/auth/login', body: { email, password }, ...(headers ? { headers } : {}) });

describe('registration', () => {
  it('creates a pending account with the email lower-cased and trimmed', async () => {
    const response = await t.request({ method: 'POST', url: '/api/auth/register', body: registration });
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe(AUTH_MESSAGES.registrationSucceeded);
    const user = await t.db.selectFrom('users').selectAll().where('email', '=', 'ada.lovelace@example.com').executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'pending', failed_attempts: 0, disabled: 0, first_name: 'Ada', designation: 'Threat Analyst' });
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a password that breaks the rule with the exact message', async () => {
    const response = await t.request({ method: 'POST', url: '/api/auth/register', body: { ...registration, password: 'weakpass' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(PASSWORD_RULE_MESSAGE);
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });

  it('refuses missing names and a bad email', async () => {
    const response = await t.request({ method: 'POST', url: '/api/auth/register', body: { ...registration, firstName: ' ', email: 'nope' } });
    expect(response.statusCode).toBe(400);
    const paths = response.json().issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['body.firstName', 'body.email']));
  });

  it('refuses a second account with the same email', async () => {
    await t.request({ method: 'POST', url: '/api/auth/register', body: registration });
    const again = await t.request({ method: 'POST', url: '/api/auth/register', body: { ...registration, email: 'ADA.LOVELACE@example.com' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/^Registration failed: /);
  });

  it('notifies every admin of the registration', async () => {
    const admin = await t.createUser({ role: 'admin' });
    await t.request({ method: 'POST', url: '/api/auth/register', body: registration });
    const notes = await t.db.selectFrom('notifications').selectAll().where('recipient_id', '=', admin.id).execute();
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toContain('ada.lovelace@example.com');
  });
});

describe('sign-in', () => {
  it('signs in, sets an HttpOnly SameSite=Lax cookie, records the login and answers /me', async () => {
    const user = await t.createUser({ role: 'student' });
    const response = await login(user.email, PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ email: user.email, role: 'student' });
    expect(JSON.stringify(response.json())).not.toContain('password');
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.secure).toBeFalsy();
    const me = await t.request({ method: 'GET', url: '/api/auth/me', cookie: cookie.value });
    expect(me.json().user.email).toBe(user.email);
    const session = await t.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(session.id).not.toBe(cookie.value); // only the hash is stored
    const events = await t.db.selectFrom('login_events').selectAll().execute();
    expect(events.map((e) => [e.email, e.role, e.event])).toEqual([[user.email, 'student', 'login']]);
  });

  it('makes the cookie Secure behind https', async () => {
    const secure = await createTestApp({ PUBLIC_ORIGIN: 'https://range.example.com' });
    try {
      const user = await secure.createUser();
      const response = await secure.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: user.email, password: PASSWORD },
        headers: { origin: 'https://range.example.com' },
      });
      expect(response.cookies.find((c) => c.name === SESSION_COOKIE)!.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('answers an unknown email exactly as a wrong password and records role unknown', async () => {
    const user = await t.createUser();
    const wrong = await login(user.email, 'Wrong!pass1');
    const unknown = await login('nobody@example.com', 'Wrong!pass1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    const event = await t.db.selectFrom('login_events').selectAll().where('email', '=', 'nobody@example.com').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ role: 'unknown', event: 'failed_login' });
  });

  it('refuses a pending account with the pending message', async () => {
    const user = await t.createUser({ role: 'pending' });
    const response = await login(user.email, PASSWORD);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(AUTH_MESSAGES.pending);
  });

  it('disables the account at the third wrong password and keeps refusing the right one', async () => {
    const user = await t.createUser();
    expect((await login(user.email, 'Wrong!pass1')).json().error).toBe(AUTH_MESSAGES.invalidCredentials);
    expect((await login(user.email, 'Wrong!pass1')).json().error).toBe(AUTH_MESSAGES.invalidCredentials);
    const third = await login(user.email, 'Wrong!pass1');
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe(AUTH_MESSAGES.disabled);
    const right = await login(user.email, PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json().error).toBe(AUTH_MESSAGES.disabled);
    const row = await t.db.selectFrom('users').select(['failed_attempts', 'disabled']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_attempts: 3, disabled: 1 });
  });

  it('counts concurrent wrong attempts atomically', async () => {
    const user = await t.createUser();
    await Promise.all([login(user.email, 'Wrong!pass1'), login(user.email, 'Wrong!pass2')]);
    const row = await t.db.selectFrom('users').select(['failed_attempts', 'disabled']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_attempts: 2, disabled: 0 });
    await Promise.all([login(user.email, 'Wrong!pass3'), login(user.email, 'Wrong!pass4')]);
    const after = await t.db.selectFrom('users').select(['failed_attempts', 'disabled']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ failed_attempts: 4, disabled: 1 });
  });

  it('resets the failed counter on a successful sign-in', async () => {
    const user = await t.createUser();
    await login(user.email, 'Wrong!pass1');
    await login(user.email, 'Wrong!pass1');
    expect((await login(user.email, PASSWORD)).statusCode).toBe(200);
    const row = await t.db.selectFrom('users').select(['failed_attempts', 'disabled']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_attempts: 0, disabled: 0 });
  });

  it('lets a whole class sign in from one address, but limits guessing one account', async () => {
    const users = await Promise.all(Array.from({ length: 60 }, () => t.createUser()));
    const results = await Promise.all(users.map((user) => login(user.email, PASSWORD)));
    expect(results.map((r) => r.statusCode)).toEqual(users.map(() => 200));

    // Successful sign-ins never count towards the per-account limit...
    const regular = await t.createUser();
    for (let i = 0; i < 12; i++) expect((await login(regular.email, PASSWORD)).statusCode).toBe(200);
    // ...failures do: guessing at unknown accounts is cut off after 10 tries.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await login('ghost@example.com', `Wrong!pass${i}`)).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 401 || status === 403)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const limited = await login('ghost@example.com', PASSWORD);
    expect(limited.json().error).toMatch(/Too many sign-in attempts/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sessions', () => {
  it('ends the session on logout and records it', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const response = await t.request({ method: 'POST', url: '/api/auth/logout', body: {}, cookie });
    expect(response.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie })).json().user).toBeNull();
    const events = await t.db.selectFrom('login_events').select('event').where('email', '=', user.email).execute();
    expect(events.map((e) => e.event)).toEqual(['login', 'logout']);
  });

  it('applies a role change, a disable and a deletion on the next request', async () => {
    const { user, cookie } = await t.userWithSession('admin');
    await t.createUser({ role: 'admin' }); // someone else stays admin
    const pending = () => t.request({ method: 'GET', url: '/api/users/pending', cookie });
    expect((await pending()).statusCode).toBe(200);
    await t.db.updateTable('users').set({ role: 'student' }).where('id', '=', user.id).execute();
    expect((await pending()).statusCode).toBe(403);
    await t.db.updateTable('users').set({ disabled: 1 }).where('id', '=', user.id).execute();
    expect((await pending()).statusCode).toBe(401);
    await t.db.updateTable('users').set({ disabled: 0 }).where('id', '=', user.id).execute();
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect((await pending()).statusCode).toBe(401);
  });

  it('refuses an expired or idle session', async () => {
    const { cookie } = await t.userWithSession('student');
    await t.db.updateTable('sessions').set({ last_seen_at: '2020-01-01T00:00:00.000Z' }).execute();
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie })).json().user).toBeNull();
    expect(await t.db.selectFrom('sessions').select('id').execute()).toHaveLength(0);
  });
});

describe('password change', () => {
  const change = (cookie: string, body: Record<string, string>) =>
    t.request({ method: 'POST', url: '/api/auth/password', body, cookie });

  it('verifies the current password, applies the rule and the match', async () => {
    const { cookie } = await t.userWithSession('student');
    const wrong = await change(cookie, { currentPassword: 'Wrong!pass1', newPassword: 'Better!pass2', confirmPassword: 'Better!pass2' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('The current password is incorrect.');
    const weak = await change(cookie, { currentPassword: PASSWORD, newPassword: 'weak', confirmPassword: 'weak' });
    expect(weak.json().error).toBe(NEW_PASSWORD_RULE_MESSAGE);
    const mismatch = await change(cookie, { currentPassword: PASSWORD, newPassword: 'Better!pass2', confirmPassword: 'Better!pass3' });
    expect(mismatch.json().error).toBe(PASSWORDS_DO_NOT_MATCH_MESSAGE);
  });

  it('changes the password, records it and ends the other sessions only', async () => {
    const user = await t.createUser();
    const here = await t.signIn(user.email);
    const elsewhere = await t.signIn(user.email);
    const response = await change(here, { currentPassword: PASSWORD, newPassword: 'Better!pass2', confirmPassword: 'Better!pass2' });
    expect(response.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: here })).json().user.email).toBe(user.email);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: elsewhere })).json().user).toBeNull();
    expect((await login(user.email, 'Better!pass2')).statusCode).toBe(200);
    const events = await t.db.selectFrom('login_events').select('event').where('email', '=', user.email).execute();
    expect(events.map((e) => e.event)).toContain('password_change');
  });
});

describe('CSRF', () => {
  it('refuses a state change from another origin', async () => {
    const user = await t.createUser();
    const response = await login(user.email, PASSWORD, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(await t.db.selectFrom('sessions').select('id').execute()).toHaveLength(0);
  });

  it('refuses a form-encoded state change', async () => {
    const user = await t.createUser();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:8080' },
      payload: `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(response.statusCode).toBe(415);
    expect(await t.db.selectFrom('sessions').select('id').execute()).toHaveLength(0);
  });
});

describe('no client-written activity', () => {
  it('has no route that accepts a posted log entry', async () => {
    const routes = t.app.printRoutes({ commonPrefix: false });
    expect(routes).not.toMatch(/log-login|log-failed-login|log-logout|log-password-change/);
  });
});
