import { PASSWORD_SIGN_IN_OFF } from '@tradecraft/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../../../../test-support/oidc-provider';
import { createTestApp, ORIGIN, PASSWORD, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';
import { sameSitePath } from './sso.service';

const CALLBACK = `${ORIGIN}/api/auth/oidc/callback`;

let provider: TestOidcProvider;
let t: TestApp;

beforeAll(async () => {
  provider = await startOidcProvider([CALLBACK]);
  provider.accounts.set('ada', { email: 'ada@corp.example', givenName: 'Ada', familyName: 'Lovelace' });
  provider.accounts.set('grace', { email: 'grace@partner.example', givenName: 'Grace', familyName: 'Hopper' });
  provider.accounts.set('lead', {
    email: 'lead@partner.example',
    givenName: 'Lin',
    familyName: 'Lead',
    groups: ['cti-leads'],
  });
  provider.accounts.set('unverified', { email: 'who@corp.example', emailVerified: false });
});
afterAll(() => provider.close());

const ssoEnv = (extra: Record<string, string> = {}) => ({
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: provider.clientId,
  OIDC_CLIENT_SECRET: provider.clientSecret,
  OIDC_DISPLAY_NAME: 'Corp ID',
  OIDC_ADMIN_GROUPS: 'cti-leads',
  OIDC_AUTO_APPROVE_DOMAINS: 'corp.example',
  ...extra,
});

beforeEach(async () => {
  t = await createTestApp(ssoEnv());
});
afterEach(() => t.close());

/** Starts a sign-in, plays the person at the provider, and hands the provider's answer to the callback. */
async function signInThroughProvider(login: string, returnTo?: string) {
  const start = await t.request({
    method: 'GET',
    url: `/api/auth/oidc/start${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
  });
  expect(start.statusCode).toBe(302);
  const back = await signInAtProvider(start.headers.location as string, login);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  return t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
}

const sessionCookie = (response: { cookies: { name: string; value: string }[] }) =>
  response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;

const userRow = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

describe('single sign-on', () => {
  it('says how to sign in, with the provider name for the button', async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/methods' });
    expect(response.json()).toEqual({ password: true, sso: { displayName: 'Corp ID' } });
  });

  it('sends the browser to the provider with PKCE, state and nonce', async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/oidc/start' });
    const location = new URL(response.headers.location as string);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe(CALLBACK);
  });

  it('approves a first sign-in from an approved domain as a trainee and signs them in', async () => {
    const response = await signInThroughProvider('ada', '/skills');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/skills');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', cookie: sessionCookie(response)! });
    expect(me.json().user).toMatchObject({
      email: 'ada@corp.example',
      role: 'student',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
  });

  it('keeps anyone else waiting for approval, and tells the admins', async () => {
    const admin = await t.createUser({ role: 'admin' });
    const response = await signInThroughProvider('grace');
    expect(response.headers.location).toBe('/login?sso=pending');
    expect(sessionCookie(response)).toBeUndefined();
    expect((await userRow('grace@partner.example'))?.role).toBe('pending');
    const notes = await t.db
      .selectFrom('notifications')
      .select(['kind', 'message'])
      .where('recipient_id', '=', admin.id)
      .execute();
    expect(notes).toEqual([{ kind: 'registration', message: expect.stringContaining('grace@partner.example') }]);
  });

  it('makes a member of an admin group an admin', async () => {
    const response = await signInThroughProvider('lead');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', cookie: sessionCookie(response)! });
    expect(me.json().user.role).toBe('admin');
  });

  it('links an existing account by its email and records the sign-in in the activity log and audit trail', async () => {
    const existing = await t.createUser({ email: 'ada@corp.example', role: 'student' });
    const response = await signInThroughProvider('ada');
    const me = await t.request({ method: 'GET', url: '/api/auth/me', cookie: sessionCookie(response)! });
    expect(me.json().user.id).toBe(existing.id);
    const events = await t.db
      .selectFrom('login_events')
      .select(['email', 'event'])
      .where('email', '=', 'ada@corp.example')
      .execute();
    expect(events).toEqual([{ email: 'ada@corp.example', event: 'login' }]);
    const audit = await t.db.selectFrom('audit_log').select('action').where('actor', '=', 'ada@corp.example').execute();
    expect(audit.map((entry) => entry.action)).toEqual(['link single sign-on']);
  });

  it('refuses a disabled account', async () => {
    await t.createUser({ email: 'ada@corp.example', disabled: 1 });
    const response = await signInThroughProvider('ada');
    expect(response.headers.location).toBe('/login?sso=disabled');
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('refuses an identity whose email the provider has not verified', async () => {
    const response = await signInThroughProvider('unverified');
    expect(response.headers.location).toBe('/login?sso=no-email');
    expect(await userRow('who@corp.example')).toBeUndefined();
  });

  it('accepts each started sign-in once: a replayed callback is refused', async () => {
    const start = await t.request({ method: 'GET', url: '/api/auth/oidc/start' });
    const back = await signInAtProvider(start.headers.location as string, 'ada');
    const first = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(sessionCookie(first)).toBeDefined();
    const replay = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(replay.headers.location).toBe('/login?sso=expired');
    expect(sessionCookie(replay)).toBeUndefined();
  });

  it('refuses a callback whose state it never issued', async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/oidc/callback?code=stolen&state=made-up' });
    expect(response.headers.location).toBe('/login?sso=expired');
  });

  it('refuses a code exchanged with another sign-in state (the PKCE verifier and nonce do not match)', async () => {
    const mine = await t.request({ method: 'GET', url: '/api/auth/oidc/start' });
    const theirs = await t.request({ method: 'GET', url: '/api/auth/oidc/start' });
    const back = await signInAtProvider(mine.headers.location as string, 'ada');
    const otherState = new URL(theirs.headers.location as string).searchParams.get('state')!;
    back.searchParams.set('state', otherState);
    const response = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(response.headers.location).toBe('/login?sso=refused');
    expect(sessionCookie(response)).toBeUndefined();
  });
});

describe('password sign-in turned off', () => {
  it('refuses password sign-in and registration with a message, and says so to the sign-in page', async () => {
    const only = await createTestApp(ssoEnv({ LOCAL_LOGIN: 'false' }));
    try {
      const user = await only.createUser();
      const login = await only.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: user.email, password: PASSWORD },
      });
      expect(login.statusCode).toBe(403);
      expect(login.json().error).toBe(PASSWORD_SIGN_IN_OFF);
      const methods = await only.request({ method: 'GET', url: '/api/auth/methods' });
      expect(methods.json()).toEqual({ password: false, sso: { displayName: 'Corp ID' } });
    } finally {
      await only.close();
    }
  });
});

describe('without single sign-on', () => {
  it('answers 404 at the start of a sign-in', async () => {
    const plain = await createTestApp();
    try {
      const response = await plain.request({ method: 'GET', url: '/api/auth/oidc/start' });
      expect(response.statusCode).toBe(404);
      expect((await plain.request({ method: 'GET', url: '/api/auth/methods' })).json()).toEqual({
        password: true,
        sso: null,
      });
    } finally {
      await plain.close();
    }
  });
});

describe('the page to return to', () => {
  it.each([
    ['/skills', '/skills'],
    ['/reports/abc?x=1', '/reports/abc?x=1'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    [undefined, '/'],
  ])('%s lands on %s', (value, expected) => {
    expect(sameSitePath(value)).toBe(expected);
  });
});
