import { AUTH_MESSAGES, PASSWORD_SIGN_IN_OFF, SECOND_FACTOR_MESSAGES, SSO_LINK_MESSAGES } from '@tradecraft/shared';
import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../../../../test-support/oidc-provider';
import { createTestApp, ORIGIN, PASSWORD, type TestApp } from '../../../test/helper';
import { PENDING_COOKIE } from '../../plugins/session-cookie';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';
import { providerMfaCounts } from './sso.service';

// Every test signs in through oidc-provider running with its defaults (test-support/oidc-provider.ts): the ID
// token carries `sub` and the protocol claims, and email, names and groups come from UserInfo.

const CALLBACK = `${ORIGIN}/api/auth/oidc/callback`;
const BROWSER_COOKIE = 'tc_sso';
const LINK_COOKIE = 'tc_sso_link';

let provider: TestOidcProvider;
let t: TestApp;

beforeAll(async () => {
  // The provider declares the authentication context its second factor gives (a deployment's own setting).
  provider = await startOidcProvider([CALLBACK], { acrValues: ['urn:corp:mfa'] });
  const verified = { emailVerified: true };
  provider.accounts.set('ada', { ...verified, email: 'ada@corp.example', givenName: 'Ada', familyName: 'Lovelace' });
  provider.accounts.set('grace', {
    ...verified,
    email: 'grace@partner.example',
    givenName: 'Grace',
    familyName: 'Hopper',
  });
  provider.accounts.set('lead', {
    ...verified,
    email: 'lead@partner.example',
    givenName: 'Lin',
    familyName: 'Lead',
    groups: ['cti-leads'],
  });
  provider.accounts.set('unverified', { email: 'who@corp.example', emailVerified: false });
  // A provider that does not vouch for the address at all: no email_verified claim.
  provider.accounts.set('attacker', { email: 'admin@corp.example' });
  provider.accounts.set('ada-acr', { ...verified, email: 'ada@corp.example', acr: 'urn:corp:mfa' });
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

type Response = Awaited<ReturnType<TestApp['request']>>;
const cookieOf = (response: Response, name: string) => response.cookies.find((cookie) => cookie.name === name)?.value;
const sessionCookie = (response: Response) => cookieOf(response, SESSION_COOKIE);

/** Starts a sign-in in a browser; returns the provider's address and the browser's binding cookie. */
async function start(returnTo?: string, app: TestApp = t) {
  const response = await app.request({
    method: 'GET',
    url: `/api/auth/oidc/start${returnTo !== undefined ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`,
  });
  expect(response.statusCode).toBe(302);
  return { location: response.headers.location as string, browser: cookieOf(response, BROWSER_COOKIE) };
}

/** Starts a sign-in, plays the person at the provider, and hands the provider's answer to the callback. */
async function signInThroughProvider(login: string, returnTo?: string, app: TestApp = t) {
  const { location, browser } = await start(returnTo, app);
  const back = await signInAtProvider(location, login);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  return app.request({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { cookie: `${BROWSER_COOKIE}=${browser}` },
  });
}

const me = async (cookie: string | undefined) =>
  (await t.request({ method: 'GET', url: '/api/auth/me', cookie: cookie! })).json().user;

const userRow = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
const identities = () => t.db.selectFrom('sso_identities').select(['subject', 'user_id']).execute();

const linkInfo = (link: string | undefined) =>
  t.request({ method: 'GET', url: '/api/auth/oidc/link', headers: link ? { cookie: `${LINK_COOKIE}=${link}` } : {} });
const link = (linkToken: string | undefined, body: { password: string; code?: string }) =>
  t.request({
    method: 'POST',
    url: '/api/auth/oidc/link',
    body,
    headers: linkToken ? { cookie: `${LINK_COOKIE}=${linkToken}` } : {},
  });

/** An account's recovery codes after enrolling an authenticator app through the API; with its secret. */
async function enrolTotp(cookie: string): Promise<{ secret: string; recoveryCodes: string[] }> {
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

const notesOf = (userId: string) =>
  t.db.selectFrom('notifications').select(['kind', 'message']).where('recipient_id', '=', userId).execute();

describe('single sign-on with a standard provider (claims from UserInfo)', () => {
  it('says how to sign in, with the provider name for the button', async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/methods' });
    expect(response.json()).toEqual({ password: true, sso: { displayName: 'Corp ID' } });
  });

  it('sends the browser to the provider with PKCE, state and nonce', async () => {
    const { location } = await start();
    const url = new URL(location);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
  });

  it('approves a first sign-in from an approved domain as a trainee, with the names from UserInfo', async () => {
    const response = await signInThroughProvider('ada', '/skills');
    expect(response.headers.location).toBe('/skills');
    expect(await me(sessionCookie(response))).toMatchObject({
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
    expect(await notesOf(admin.id)).toEqual([
      { kind: 'registration', message: expect.stringContaining('grace@partner.example') },
    ]);
  });

  it('makes a member of an admin group (groups from UserInfo) an admin', async () => {
    const response = await signInThroughProvider('lead');
    expect((await me(sessionCookie(response))).role).toBe('admin');
  });

  it('refuses a disabled account', async () => {
    await t.createUser({ email: 'ada@corp.example', disabled: 1 });
    const response = await signInThroughProvider('ada');
    expect(response.headers.location).toBe('/login?sso=disabled');
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('accepts each started sign-in once: a replayed callback is refused', async () => {
    const { location, browser } = await start();
    const back = await signInAtProvider(location, 'ada');
    const callback = () =>
      t.request({
        method: 'GET',
        url: `${back.pathname}${back.search}`,
        headers: { cookie: `${BROWSER_COOKIE}=${browser}` },
      });
    expect(sessionCookie(await callback())).toBeDefined();
    const replay = await callback();
    expect(replay.headers.location).toBe('/login?sso=expired');
    expect(sessionCookie(replay)).toBeUndefined();
  });

  it('refuses a code exchanged with another sign-in state (the PKCE verifier and nonce do not match)', async () => {
    const mine = await start();
    const theirs = await start();
    const back = await signInAtProvider(mine.location, 'ada');
    back.searchParams.set('state', new URL(theirs.location).searchParams.get('state')!);
    const response = await t.request({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `${BROWSER_COOKIE}=${theirs.browser}` },
    });
    expect(response.headers.location).toBe('/login?sso=refused');
    expect(sessionCookie(response)).toBeUndefined();
  });
});

describe('email_verified', () => {
  it('never links to an existing account (an admin) when the provider does not vouch for the email', async () => {
    const admin = await t.createUser({ email: 'admin@corp.example', role: 'admin' });
    const response = await signInThroughProvider('attacker');
    expect(response.headers.location).toBe('/login?sso=no-email');
    expect(sessionCookie(response)).toBeUndefined();
    expect(cookieOf(response, LINK_COOKIE)).toBeUndefined();
    expect(await identities()).toEqual([]);
    expect((await userRow('admin@corp.example'))?.id).toBe(admin.id);
  });

  it('neither creates nor approves by domain an account whose email is marked unverified', async () => {
    const response = await signInThroughProvider('unverified');
    expect(response.headers.location).toBe('/login?sso=no-email');
    expect(await userRow('who@corp.example')).toBeUndefined();
  });
});

describe('linking an existing account', () => {
  it('does not sign in by email: it asks for the account password on the "Link your account" page', async () => {
    await t.createUser({ email: 'ada@corp.example', role: 'student' });
    const response = await signInThroughProvider('ada', '/skills');
    expect(response.headers.location).toBe('/link-account');
    expect(sessionCookie(response)).toBeUndefined();
    expect(await identities()).toEqual([]);
    const info = await linkInfo(cookieOf(response, LINK_COOKIE));
    expect(info.json()).toEqual({ email: 'ada@corp.example', provider: 'Corp ID', secondFactor: [] });
  });

  it('links after the right password, signs in, and signs in by the link from then on', async () => {
    const existing = await t.createUser({ email: 'ada@corp.example', role: 'student' });
    const first = await signInThroughProvider('ada', '/skills');
    const linked = await link(cookieOf(first, LINK_COOKIE), { password: PASSWORD });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ user: { id: existing.id }, returnTo: '/skills' });
    expect((await me(sessionCookie(linked))).id).toBe(existing.id);
    expect(await identities()).toEqual([{ subject: 'ada', user_id: existing.id }]);
    const audit = await t.db.selectFrom('audit_log').select('action').where('actor', '=', 'ada@corp.example').execute();
    expect(audit.map((entry) => entry.action)).toEqual(['link single sign-on']);
    // The request is used up.
    expect((await linkInfo(cookieOf(first, LINK_COOKIE))).statusCode).toBe(400);

    const again = await signInThroughProvider('ada', '/scenarios');
    expect(again.headers.location).toBe('/scenarios');
    expect((await me(sessionCookie(again))).id).toBe(existing.id);
  });

  it('refuses a wrong password with a message and links nothing', async () => {
    await t.createUser({ email: 'ada@corp.example', role: 'student' });
    const first = await signInThroughProvider('ada');
    const wrong = await link(cookieOf(first, LINK_COOKIE), { password: 'Not-the-password-1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(SSO_LINK_MESSAGES.wrongPassword);
    expect(sessionCookie(wrong)).toBeUndefined();
    expect(await identities()).toEqual([]);
  });

  it('counts wrong passwords toward the lockout: a locked account is refused even with the right one', async () => {
    await t.createUser({ email: 'ada@corp.example', role: 'student' });
    const token = cookieOf(await signInThroughProvider('ada'), LINK_COOKIE);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await link(token, { password: 'Not-the-password-1' })).statusCode).toBe(401);
    }
    const third = await link(token, { password: 'Not-the-password-1' });
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe(AUTH_MESSAGES.disabled);
    const right = await link(token, { password: PASSWORD });
    expect(right.statusCode).toBe(403);
    expect(sessionCookie(right)).toBeUndefined();
    expect(await identities()).toEqual([]);
  });

  it('refuses an expired or missing link request with a message', async () => {
    await t.createUser({ email: 'ada@corp.example', role: 'student' });
    const token = cookieOf(await signInThroughProvider('ada'), LINK_COOKIE);
    const missing = await link(undefined, { password: PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(SSO_LINK_MESSAGES.expired);
    await t.db
      .updateTable('sso_link_requests')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const expired = await link(token, { password: PASSWORD });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toBe(SSO_LINK_MESSAGES.expired);
    expect(sessionCookie(expired)).toBeUndefined();
    expect(await identities()).toEqual([]);
  });

  it('asks an account with a second factor for it too, and links with the password and a recovery code', async () => {
    const { user, cookie } = await t.userWithSession('student', { email: 'ada@corp.example' });
    const { recoveryCodes } = await enrolTotp(cookie);
    const token = cookieOf(await signInThroughProvider('ada'), LINK_COOKIE);
    expect((await linkInfo(token)).json().secondFactor).toEqual(['totp', 'recovery']);
    const withoutCode = await link(token, { password: PASSWORD });
    expect(withoutCode.statusCode).toBe(400);
    expect(withoutCode.json().error).toBe(SSO_LINK_MESSAGES.codeNeeded);
    const linked = await link(token, { password: PASSWORD, code: recoveryCodes[0]! });
    expect(linked.statusCode).toBe(200);
    expect((await me(sessionCookie(linked))).id).toBe(user.id);
    expect(await identities()).toEqual([{ subject: 'ada', user_id: user.id }]);
  });

  it('refuses a wrong second factor with a message and links nothing', async () => {
    const { cookie } = await t.userWithSession('student', { email: 'ada@corp.example' });
    await enrolTotp(cookie);
    const token = cookieOf(await signInThroughProvider('ada'), LINK_COOKIE);
    const wrongCode = await link(token, { password: PASSWORD, code: '000000' });
    expect(wrongCode.statusCode).toBe(401);
    expect(wrongCode.json().error).toBe(SECOND_FACTOR_MESSAGES.wrongCode);
    expect(sessionCookie(wrongCode)).toBeUndefined();
    expect(await identities()).toEqual([]);
  });
});

describe('a linked account with a second factor', () => {
  async function linkedWithTotp(app: TestApp = t) {
    const { user, cookie } = await app.userWithSession('student', { email: 'ada@corp.example' });
    const { secret, recoveryCodes } = await enrolTotp(cookie);
    await app.db
      .insertInto('sso_identities')
      .values({
        issuer: provider.issuer,
        subject: 'ada',
        user_id: user.id,
        created_at: '2026-11-01T00:00:00.000Z',
        last_sign_in_at: '2026-11-01T00:00:00.000Z',
      })
      .execute();
    await app.db
      .insertInto('sso_identities')
      .values({
        issuer: provider.issuer,
        subject: 'ada-acr',
        user_id: user.id,
        created_at: '2026-11-01T00:00:00.000Z',
        last_sign_in_at: '2026-11-01T00:00:00.000Z',
      })
      .execute();
    return { user, secret, recoveryCodes };
  }

  it('still needs that second factor at sign-on: no session until the code', async () => {
    const { user, secret } = await linkedWithTotp();
    const response = await signInThroughProvider('ada', '/skills');
    expect(response.headers.location).toBe('/confirm-sign-in?next=%2Fskills');
    expect(sessionCookie(response)).toBeUndefined();
    const pending = cookieOf(response, PENDING_COOKIE)!;
    const methods = await t.request({
      method: 'GET',
      url: '/api/auth/oidc/second-step',
      headers: { cookie: `${PENDING_COOKIE}=${pending}` },
    });
    expect(methods.json()).toEqual({ methods: ['totp', 'recovery'] });
    const done = await t.request({
      method: 'POST',
      url: '/api/auth/login/code',
      body: { code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }) },
      headers: { cookie: `${PENDING_COOKIE}=${pending}` },
    });
    expect(done.statusCode).toBe(200);
    expect((await me(sessionCookie(done))).id).toBe(user.id);
  });

  it('does not take the provider’s word for a second factor unless the operator allows it', async () => {
    await t.close();
    t = await createTestApp(ssoEnv({ OIDC_MFA_ACR_VALUES: 'urn:corp:mfa' }));
    await linkedWithTotp();
    const response = await signInThroughProvider('ada-acr');
    expect(response.headers.location).toBe('/confirm-sign-in?next=%2F');
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('signs in when the provider asserts a configured acr and OIDC_TRUST_PROVIDER_MFA allows it', async () => {
    await t.close();
    t = await createTestApp(ssoEnv({ OIDC_TRUST_PROVIDER_MFA: 'true', OIDC_MFA_ACR_VALUES: 'urn:corp:mfa' }));
    const { user } = await linkedWithTotp();
    const byAcr = await signInThroughProvider('ada-acr', '/skills');
    expect(byAcr.headers.location).toBe('/skills');
    expect((await me(sessionCookie(byAcr))).id).toBe(user.id);
    // Without an assertion the code is still asked for.
    const plain = await signInThroughProvider('ada');
    expect(sessionCookie(plain)).toBeUndefined();
    expect(plain.headers.location).toBe('/confirm-sign-in?next=%2F');
  });

  it.each([
    [{ amr: ['pwd', 'mfa'] }, { trustProviderMfa: true, mfaAcrValues: [] }, true],
    [{ amr: ['pwd', 'mfa'] }, { trustProviderMfa: false, mfaAcrValues: [] }, false],
    [{ amr: ['pwd'] }, { trustProviderMfa: true, mfaAcrValues: [] }, false],
    [{ amr: [], acr: 'urn:corp:mfa' }, { trustProviderMfa: true, mfaAcrValues: ['urn:corp:mfa'] }, true],
    [{ amr: [], acr: 'urn:corp:pwd' }, { trustProviderMfa: true, mfaAcrValues: ['urn:corp:mfa'] }, false],
  ])('counts the provider’s second factor %j under %j: %s', (claims, settings, counts) => {
    expect(providerMfaCounts(claims, settings)).toBe(counts);
  });
});

describe('the sign-in is bound to the browser that started it (login CSRF)', () => {
  it('refuses a callback without the browser cookie and signs nobody in', async () => {
    const { location } = await start();
    const back = await signInAtProvider(location, 'ada');
    // The attacker's callback address, opened by a victim whose browser never started that sign-in.
    const response = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(response.headers.location).toBe('/login?sso=other-browser');
    expect(sessionCookie(response)).toBeUndefined();
    expect(await userRow('ada@corp.example')).toBeUndefined();
  });

  it('refuses a callback with another browser’s cookie', async () => {
    const attacker = await start();
    const victim = await start();
    const back = await signInAtProvider(attacker.location, 'ada');
    const response = await t.request({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `${BROWSER_COOKIE}=${victim.browser}` },
    });
    expect(response.headers.location).toBe('/login?sso=expired');
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('sets the binding cookie HttpOnly, SameSite=Lax and short-lived', async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/oidc/start' });
    const cookie = response.cookies.find((c) => c.name === BROWSER_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 600 });
  });
});

describe('the page to return to', () => {
  it.each([
    ['/.//evil.example/landing'],
    ['/x/..//evil.example/landing'],
    ['/%2e//evil.example/landing'],
    ['//evil.example/'],
    ['/\\evil.example'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
  ])('%s lands on / after signing in', async (returnTo) => {
    const response = await signInThroughProvider('ada', returnTo);
    expect(response.headers.location).toBe('/');
    expect(sessionCookie(response)).toBeDefined();
  });
});

describe('the admin group, applied at each sign-on both ways', () => {
  /** A person at the provider whose groups the test changes between sign-ins. */
  const person = (login: string, groups: string[] | undefined) =>
    provider.accounts.set(login, { email: `${login}@partner.example`, emailVerified: true, groups });

  it('demotes an admin who left the group and tells them and the other admins', async () => {
    const other = await t.createUser({ role: 'admin' });
    person('leaver', ['cti-leads']);
    const leadCookie = sessionCookie(await signInThroughProvider('leaver'))!;
    const lead = await me(leadCookie);
    expect(lead.role).toBe('admin');
    const token = await t.request({
      method: 'POST',
      url: '/api/tokens',
      body: { name: 'nightly export', scope: 'read', expiresInDays: 30 },
      cookie: leadCookie,
    });
    expect(token.statusCode).toBe(201);
    person('leaver', ['analysts']);
    const later = await signInThroughProvider('leaver');
    expect((await me(sessionCookie(later))).role).toBe('student');
    expect(await notesOf(lead.id)).toContainEqual({
      kind: 'role-change',
      message: expect.stringContaining('You are no longer an admin'),
    });
    expect(await notesOf(other.id)).toContainEqual({
      kind: 'role-change',
      message: expect.stringContaining('(leaver@partner.example) is no longer an admin'),
    });
    const audit = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('actor', '=', 'leaver@partner.example')
      .execute();
    expect(audit.map((entry) => entry.action)).toContain('demote by single sign-on');
    // Their API tokens are revoked, not dormant: a later promotion must not bring them back.
    const tokens = await t.db.selectFrom('api_tokens').select('revoked_at').where('user_id', '=', lead.id).execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.revoked_at).not.toBeNull();
  });

  it('promotes a trainee who joined the group, and tells them', async () => {
    await t.createUser({ role: 'admin' });
    person('joiner', []);
    expect((await signInThroughProvider('joiner')).headers.location).toBe('/login?sso=pending');
    const first = (await userRow('joiner@partner.example'))!;
    await t.db.updateTable('users').set({ role: 'student' }).where('id', '=', first.id).execute();
    person('joiner', ['cti-leads']);
    const later = await signInThroughProvider('joiner');
    expect((await me(sessionCookie(later))).role).toBe('admin');
    expect(await notesOf(first.id)).toContainEqual({
      kind: 'role-change',
      message: expect.stringContaining('You are now an admin'),
    });
  });

  it('keeps the last admin an admin, and tells them why', async () => {
    person('last', ['cti-leads']);
    const lead = await me(sessionCookie(await signInThroughProvider('last')));
    person('last', ['analysts']);
    const later = await signInThroughProvider('last');
    expect((await me(sessionCookie(later))).role).toBe('admin');
    expect(await notesOf(lead.id)).toContainEqual({
      kind: 'role-change',
      message: expect.stringContaining('you are the last admin here, so you stay one'),
    });
  });

  it('changes no role when the provider sends no groups claim', async () => {
    await t.createUser({ role: 'admin' });
    person('silent', ['cti-leads']);
    await signInThroughProvider('silent');
    person('silent', undefined);
    const later = await signInThroughProvider('silent');
    expect((await me(sessionCookie(later))).role).toBe('admin');
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
