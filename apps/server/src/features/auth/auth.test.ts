import {
  AUTH_MESSAGES,
  NEW_PASSWORD_RULE_MESSAGE,
  PASSWORD_RULE_MESSAGE,
  PASSWORDS_DO_NOT_MATCH_MESSAGE,
} from '@tradecraft/shared';
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

const lockRow = (id: string) =>
  t.db
    .selectFrom('users')
    .select(['failed_attempts', 'disabled', 'locked_until'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const login = (email: string, password: string, headers?: Record<string, string>) =>
  t.request({ method: 'POST', url: '/api/auth/login', body: { email, password }, ...(headers ? { headers } : {}) });

describe('registration', () => {
  it('creates a pending account with the email lower-cased and trimmed', async () => {
    const response = await t.request({ method: 'POST', url: '/api/auth/register', body: registration });
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe(AUTH_MESSAGES.registrationSucceeded);
    const user = await t.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'ada.lovelace@example.com')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      role: 'pending',
      failed_attempts: 0,
      disabled: 0,
      first_name: 'Ada',
      designation: 'Threat Analyst',
    });
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a password that breaks the rule with the exact message', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { ...registration, password: 'weakpass' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(PASSWORD_RULE_MESSAGE);
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });

  it('refuses missing names and a bad email', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { ...registration, firstName: ' ', email: 'nope' },
    });
    expect(response.statusCode).toBe(400);
    const paths = response.json().issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['body.firstName', 'body.email']));
  });

  it('answers a known email exactly as a new one and tells the account owner through the bell', async () => {
    const admin = await t.createUser({ role: 'admin' });
    const owner = await t.createUser({ email: 'ada.lovelace@example.com' });
    const known = await t.request({ method: 'POST', url: '/api/auth/register', body: registration });
    const fresh = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { ...registration, email: 'grace@example.com' },
    });
    expect(known.statusCode).toBe(fresh.statusCode);
    expect(known.body).toBe(fresh.body);
    expect(known.statusCode).toBe(201);
    const ownerNotes = await t.db
      .selectFrom('notifications')
      .selectAll()
      .where('recipient_id', '=', owner.id)
      .execute();
    expect(ownerNotes.map((note) => note.kind)).toEqual(['registration-attempt']);
    expect(ownerNotes[0]!.message).toMatch(/tried to register a new account with your email address/);
    // The admins hear of the new registration only; the known account is unchanged.
    const adminNotes = await t.db
      .selectFrom('notifications')
      .select('message')
      .where('recipient_id', '=', admin.id)
      .execute();
    expect(adminNotes.map((note) => note.message)).toEqual([expect.stringContaining('grace@example.com')]);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', owner.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'student', first_name: 'Test', password_hash: owner.password_hash });
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

  it('names the cookie __Host- and makes it Secure behind https, and takes no other cookie there', async () => {
    const secure = await createTestApp({ PUBLIC_ORIGIN: 'https://range.example.com' });
    try {
      const user = await secure.createUser();
      const response = await secure.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: user.email, password: PASSWORD },
        headers: { origin: 'https://range.example.com' },
      });
      expect(response.cookies.map((c) => c.name)).toEqual(['__Host-tc_session']);
      const cookie = response.cookies[0]!;
      expect(cookie).toMatchObject({ secure: true, path: '/', httpOnly: true });
      expect(cookie.domain).toBeUndefined();
      const me = (name: string) =>
        secure.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `${name}=${cookie.value}` } });
      expect((await me('__Host-tc_session')).json().user.email).toBe(user.email);
      // A plain cookie (a sibling subdomain could have set it) is not a session on https.
      expect((await me(SESSION_COOKIE)).json().user).toBeNull();
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
    const event = await t.db
      .selectFrom('login_events')
      .selectAll()
      .where('email', '=', 'nobody@example.com')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ role: 'unknown', event: 'failed_login' });
  });

  it('refuses a pending account with the pending message', async () => {
    const user = await t.createUser({ role: 'pending' });
    const response = await login(user.email, PASSWORD);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(AUTH_MESSAGES.pending);
  });

  it('locks the account at the third wrong password and keeps refusing the right one', async () => {
    const user = await t.createUser();
    expect((await login(user.email, 'Wrong!pass1')).json().error).toBe(AUTH_MESSAGES.invalidCredentials);
    expect((await login(user.email, 'Wrong!pass1')).json().error).toBe(AUTH_MESSAGES.invalidCredentials);
    const third = await login(user.email, 'Wrong!pass1');
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe(AUTH_MESSAGES.disabled);
    const right = await login(user.email, PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json().error).toBe(AUTH_MESSAGES.disabled);
    // A lock, not an admin's disable: it has an end.
    const row = await lockRow(user.id);
    expect(row).toMatchObject({ failed_attempts: 3, disabled: 0 });
    expect(Date.parse(row.locked_until!)).toBeGreaterThan(Date.now());
  });

  it('lifts the lock by itself after LOCKOUT_MINUTES', async () => {
    const short = await createTestApp({ LOCKOUT_MINUTES: '5' });
    try {
      const user = await short.createUser();
      for (let i = 0; i < 3; i++) {
        await short.request({
          method: 'POST',
          url: '/api/auth/login',
          body: { email: user.email, password: 'Wrong!pass1' },
        });
      }
      const { locked_until } = await short.db
        .selectFrom('users')
        .select('locked_until')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Date.parse(locked_until!) - Date.now()).toBeGreaterThan(4 * 60_000);
      expect(Date.parse(locked_until!) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
      // The cooling-off period passes.
      await short.db
        .updateTable('users')
        .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
        .execute();
      const right = await short.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: user.email, password: PASSWORD },
      });
      expect(right.statusCode).toBe(200);
      const row = await short.db
        .selectFrom('users')
        .select(['failed_attempts', 'locked_until', 'disabled'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ failed_attempts: 0, locked_until: null, disabled: 0 });
    } finally {
      await short.close();
    }
  });

  it('starts the count again when a lock has run out', async () => {
    const user = await t.createUser({ failed_attempts: 3, locked_until: new Date(Date.now() - 1000).toISOString() });
    expect((await login(user.email, 'Wrong!pass1')).json().error).toBe(AUTH_MESSAGES.invalidCredentials);
    expect(await lockRow(user.id)).toMatchObject({ failed_attempts: 1, locked_until: null });
  });

  it("keeps an admin's disable: the right password is refused and the account stays disabled", async () => {
    const user = await t.createUser({ disabled: 1 });
    const right = await login(user.email, PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json().error).toBe(AUTH_MESSAGES.disabled);
    expect(await lockRow(user.id)).toMatchObject({ disabled: 1, failed_attempts: 0, locked_until: null });
  });

  it('answers a disabled, a locked and an unknown account alike until the right password is given', async () => {
    const disabled = await t.createUser({ disabled: 1 });
    const active = await t.createUser();
    const answers = async (email: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await login(email, `Wrong!pass${i}`);
        seen.push(`${response.statusCode} ${response.body}`);
      }
      return seen;
    };
    const unknown = await answers('nobody-here@example.com');
    expect(await answers(disabled.email)).toEqual(unknown);
    expect(await answers(active.email)).toEqual(unknown);
    expect(unknown.map((answer) => answer.slice(0, 3))).toEqual(['401', '401', '403', '403']);
  });

  it('counts concurrent wrong attempts atomically', async () => {
    const user = await t.createUser();
    await Promise.all([login(user.email, 'Wrong!pass1'), login(user.email, 'Wrong!pass2')]);
    expect(await lockRow(user.id)).toMatchObject({ failed_attempts: 2, locked_until: null });
    await Promise.all([login(user.email, 'Wrong!pass3'), login(user.email, 'Wrong!pass4')]);
    const after = await lockRow(user.id);
    expect(after.failed_attempts).toBeGreaterThanOrEqual(3);
    expect(after.locked_until).not.toBeNull();
  });

  it('resets the failed counter on a successful sign-in', async () => {
    const user = await t.createUser();
    await login(user.email, 'Wrong!pass1');
    await login(user.email, 'Wrong!pass1');
    expect((await login(user.email, PASSWORD)).statusCode).toBe(200);
    expect(await lockRow(user.id)).toMatchObject({ failed_attempts: 0, disabled: 0, locked_until: null });
  });

  it('keeps only well-formed emails of unknown accounts in the sign-in log', async () => {
    await login('Ghost@Example.com', 'Wrong!pass1');
    await login('my secret Passw0rd! typed here', 'Wrong!pass1');
    await login('admin@localhost', 'Wrong!pass1');
    const events = await t.db.selectFrom('login_events').select(['email', 'role']).orderBy('id').execute();
    expect(events).toEqual([
      { email: 'ghost@example.com', role: 'unknown' },
      { email: '(not an email)', role: 'unknown' },
      { email: 'admin@localhost', role: 'unknown' },
    ]);
  });

  it('ends the session the browser held when it signs in again', async () => {
    const user = await t.createUser();
    const first = await t.signIn(user.email);
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: PASSWORD },
      cookie: first,
    });
    expect(again.statusCode).toBe(200);
    const second = again.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    expect(second).not.toBe(first);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: first })).json().user).toBeNull();
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: second })).json().user.email).toBe(
      user.email,
    );
    expect(await t.db.selectFrom('sessions').select('id').execute()).toHaveLength(1);
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
    const wrong = await change(cookie, {
      currentPassword: 'Wrong!pass1',
      newPassword: 'Better!pass2',
      confirmPassword: 'Better!pass2',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('The current password is incorrect.');
    const weak = await change(cookie, { currentPassword: PASSWORD, newPassword: 'weak', confirmPassword: 'weak' });
    expect(weak.json().error).toBe(NEW_PASSWORD_RULE_MESSAGE);
    const mismatch = await change(cookie, {
      currentPassword: PASSWORD,
      newPassword: 'Better!pass2',
      confirmPassword: 'Better!pass3',
    });
    expect(mismatch.json().error).toBe(PASSWORDS_DO_NOT_MATCH_MESSAGE);
  });

  it('changes the password, records it, ends the other sessions and gives this one a new token', async () => {
    const user = await t.createUser();
    const here = await t.signIn(user.email);
    const elsewhere = await t.signIn(user.email);
    const response = await change(here, {
      currentPassword: PASSWORD,
      newPassword: 'Better!pass2',
      confirmPassword: 'Better!pass2',
    });
    expect(response.statusCode).toBe(200);
    const rotated = response.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    expect(rotated).not.toBe(here);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: rotated })).json().user.email).toBe(
      user.email,
    );
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: here })).json().user).toBeNull();
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie: elsewhere })).json().user).toBeNull();
    expect((await login(user.email, 'Better!pass2')).statusCode).toBe(200);
    const events = await t.db.selectFrom('login_events').select('event').where('email', '=', user.email).execute();
    expect(events.map((e) => e.event)).toContain('password_change');
  });

  it('counts wrong current passwords toward the lockout and ends the session at the third', async () => {
    const { user, cookie } = await t.userWithSession('student');
    const wrong = { currentPassword: 'Wrong!pass1', newPassword: 'Better!pass2', confirmPassword: 'Better!pass2' };
    expect((await change(cookie, wrong)).statusCode).toBe(400);
    expect((await change(cookie, wrong)).statusCode).toBe(400);
    const third = await change(cookie, wrong);
    expect(third.statusCode).toBe(401);
    expect(third.json().error).toMatch(/signed out/);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', cookie })).json().user).toBeNull();
    expect((await login(user.email, PASSWORD)).json().error).toBe(AUTH_MESSAGES.disabled);
    expect((await lockRow(user.id)).locked_until).not.toBeNull();
  });

  it('limits password changes per user', async () => {
    const { user, cookie: first } = await t.userWithSession('student');
    let cookie = first;
    let current = PASSWORD;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const next = `Better!pass${i}`;
      const response = await change(cookie, { currentPassword: current, newPassword: next, confirmPassword: next });
      statuses.push(response.statusCode);
      if (response.statusCode === 200) {
        current = next;
        cookie = response.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
      }
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    expect(await lockRow(user.id)).toMatchObject({ failed_attempts: 0 });
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
