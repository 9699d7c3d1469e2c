import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../test/helper';
import { PASSWORD_CHANGE_DUE, type Access } from './access';
import { createSession, SESSION_COOKIE } from './sessions.repository';

/**
 * Who may call each API route. A route missing here fails the test, so every new route must say who may
 * call it, and the server must enforce exactly that.
 */
const EXPECTED: Record<string, Access> = {
  'GET /api/health': 'public',
  'GET /api/health/live': 'public',
  'GET /api/meta': 'public',
  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/me': 'public',
  'GET /api/auth/methods': 'public',
  'GET /api/auth/oidc/start': 'public',
  'GET /api/auth/oidc/callback': 'public',
  'GET /api/tokens': 'admin',
  'POST /api/tokens': 'admin',
  'DELETE /api/tokens/:id': 'admin',
  'POST /api/auth/password': 'signedIn',
  'POST /api/auth/reauthenticate': 'signedIn',
  'POST /api/auth/login/code': 'public',
  'POST /api/auth/login/passkey-options': 'public',
  'POST /api/auth/login/passkey': 'public',
  'GET /api/security': 'signedIn',
  'POST /api/security/totp': 'signedIn',
  'POST /api/security/totp/confirm': 'signedIn',
  'POST /api/security/passkeys/options': 'signedIn',
  'POST /api/security/passkeys': 'signedIn',
  'DELETE /api/security/factors/:id': 'signedIn',
  'POST /api/security/recovery-codes': 'signedIn',
  'GET /api/security/sessions': 'signedIn',
  'DELETE /api/security/sessions/:id': 'signedIn',
  'POST /api/security/sessions/end-others': 'signedIn',
  'POST /api/users/:id/end-sessions': 'admin',
  'GET /api/logs/password-spraying': 'admin',
  'GET /api/settings/second-factor-policy': 'admin',
  'PUT /api/settings/second-factor-policy': 'admin',
  'GET /api/profile': 'signedIn',
  'PATCH /api/profile': 'signedIn',
  'PUT /api/profile/photo': 'signedIn',
  'GET /api/users/:id/photo': 'signedIn',
  'GET /api/users': 'admin',
  'GET /api/users/stats': 'admin',
  'GET /api/users/dashboard-stats': 'admin',
  'PATCH /api/users/:id': 'admin',
  'GET /api/users/pending': 'admin',
  'POST /api/users/:id/approve': 'admin',
  'DELETE /api/users/:id': 'admin',
  'GET /api/logs/login-activity': 'admin',
  'GET /api/logs/login-activity/stats': 'admin',
  'GET /api/logs/login-activity.csv': 'admin',
  'GET /api/logs/login-activity.xlsx': 'admin',
  'GET /api/audit/logs': 'admin',
  'GET /api/audit/export': 'admin',
  'GET /api/notifications': 'signedIn',
  'POST /api/notifications/read': 'signedIn',
  'GET /api/notifications/stream': 'signedIn',
  'GET /api/sim/list': 'signedIn',
  'GET /api/sim/list/count': 'signedIn',
  'GET /api/sim/:id': 'signedIn',
  'DELETE /api/sim/:id': 'admin',
  'DELETE /api/sim/delete-scenario/:id': 'admin',
  'POST /api/sim/upload-scenario': 'admin',
  'POST /api/sim/check-scenario': 'admin',
  'POST /api/sim/import-stix': 'admin',
  'POST /api/sim/import/stix': 'admin',
  'GET /api/sim/:id/stix': 'admin',
  'DELETE /api/sim/:id/draft': 'admin',
  'GET /api/sim/:id/draft': 'admin',
  'GET /api/sim/:id/versions': 'admin',
  'GET /api/sim/:id/versions/:number': 'admin',
  'GET /api/sim/:id/versions/:number/export': 'admin',
  'GET /api/sim/authoring': 'admin',
  'POST /api/sim/:id/duplicate': 'admin',
  'POST /api/sim/:id/publish': 'admin',
  'POST /api/sim/:id/versions/:number/restore': 'admin',
  'POST /api/sim/drafts': 'admin',
  'PUT /api/sim/:id/draft': 'admin',
  'GET /api/settings/difficulty': 'signedIn',
  'PUT /api/settings/difficulty': 'admin',
  'GET /api/settings/setup-checklist': 'admin',
  'POST /api/settings/setup-checklist/dismiss': 'admin',
  'POST /api/runs': 'signedIn',
  'GET /api/runs/:id': 'signedIn',
  'POST /api/runs/:id/answer': 'signedIn',
  'POST /api/runs/:id/hint': 'signedIn',
  'POST /api/runs/:id/next': 'signedIn',
  'POST /api/runs/:id/end': 'signedIn',
  'POST /api/runs/:id/resume': 'signedIn',
  'POST /api/runs/:id/practice': 'signedIn',
  'POST /api/runs/:id/practice/:practiceId/answer': 'signedIn',
  'GET /api/progress/user/:email': 'signedIn',
  'GET /api/progress/all': 'admin',
  'GET /api/progress/all.csv': 'admin',
  'GET /api/progress/all.xlsx': 'admin',
  'GET /api/progress/timeline/:runId': 'signedIn',
  'GET /api/progress/runs/:runId/report': 'signedIn',
  'GET /api/progress/skills': 'signedIn',
  'GET /api/progress/skills/layer': 'signedIn',
  'GET /api/reviews': 'admin',
  'GET /api/reviews/:id': 'admin',
  'POST /api/reviews/:id/grade': 'admin',
  'GET /api/cohorts': 'admin',
  'POST /api/cohorts': 'admin',
  'GET /api/cohorts/trainees': 'admin',
  'GET /api/cohorts/:id': 'admin',
  'PATCH /api/cohorts/:id': 'admin',
  'POST /api/cohorts/:id/members/add': 'admin',
  'POST /api/cohorts/:id/members/remove': 'admin',
  'GET /api/cohorts/:id/matrix.csv': 'admin',
  'GET /api/cohorts/:id/coverage': 'admin',
  'GET /api/cohorts/:id/layer': 'admin',
  'GET /api/assignments/scenario-choices': 'admin',
  'POST /api/assignments': 'admin',
  'DELETE /api/assignments/:id': 'admin',
  'GET /api/assignments/mine': 'signedIn',
  'POST /api/assignments/check-due': 'admin',
  'GET /api/paths': 'signedIn',
  'POST /api/paths': 'admin',
  'GET /api/paths/:id': 'signedIn',
  'PATCH /api/paths/:id': 'admin',
  'GET /api/paths/:id/certificates': 'admin',
  'GET /api/certificates/mine': 'signedIn',
  'GET /api/certificates/:id/pdf': 'signedIn',
  'POST /api/certificates/:id/revoke': 'admin',
  'GET /api/verify/:code': 'public',
  'GET /api/xapi/status': 'admin',
  'GET /api/auth/oidc/link': 'public',
  'POST /api/auth/oidc/link': 'public',
  'GET /api/auth/oidc/second-step': 'public',
  'GET /api/runs/:id/case-file': 'signedIn',
  'GET /api/runs/:id/notes': 'signedIn',
  'PUT /api/runs/:id/notes': 'signedIn',
  'POST /api/runs/:id/pins': 'signedIn',
  'DELETE /api/runs/:id/pins/:pinId': 'signedIn',
  'GET /api/mail/status': 'admin',
  'GET /api/mail/preferences': 'signedIn',
  'PUT /api/mail/preferences': 'signedIn',
  'GET /api/remediation/mine': 'signedIn',
  'GET /api/remediation/:userId': 'admin',
  'GET /api/item-analysis/:id': 'admin',
};

// Routes whose call with an empty body would change the caller's own state; checked without side effects.
const SELF_CHANGING = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/login',
  'POST /api/auth/register',
  // Ends the caller's other sessions, the matrix's own among them.
  'POST /api/security/sessions/end-others',
]);
// What an account whose printed first-start password must change may still call, besides public routes.
const ALLOWED_BEFORE_PASSWORD_CHANGE = new Set(['POST /api/auth/password']);
// An event stream never ends for an allowed caller, so only its refusals are checked here.
const isStream = (url: string) => url.endsWith('/stream');

describe('authorization matrix', () => {
  let t: TestApp;
  const tokens: Record<'student' | 'admin' | 'disabled' | 'pending', () => Promise<string>> = {} as never;
  const emails: Record<'student' | 'admin' | 'disabled' | 'pending', string> = {} as never;

  beforeAll(async () => {
    t = await createTestApp();
    const student = await t.createUser({ role: 'student' });
    const admin = await t.createUser({ role: 'admin' });
    const disabled = await t.createUser({ role: 'admin' });
    const pending = await t.createUser({ role: 'pending' });
    Object.assign(emails, {
      student: student.email,
      admin: admin.email,
      disabled: disabled.email,
      pending: pending.email,
    });
    const client = { ip: '127.0.0.1', userAgent: 'matrix' };
    // A fresh session per call, so no call (say, a logout) can spoil the next one.
    tokens.student = async () => (await createSession(t.db, student.id, client)).token;
    tokens.admin = async () => (await createSession(t.db, admin.id, client)).token;
    const disabledToken = (await createSession(t.db, disabled.id, client)).token;
    await t.db.updateTable('users').set({ disabled: 1 }).where('id', '=', disabled.id).execute();
    tokens.disabled = async () => disabledToken;
    // A pending account cannot sign in; a session made for it anyway (say, before a role change) opens nothing.
    tokens.pending = async () => (await createSession(t.db, pending.id, client)).token;
  });
  afterAll(() => t.close());

  it('declares every registered route in the expected table, and nothing more', () => {
    const registered = t.app.apiRoutes.map((route) => `${route.method} ${route.url}`).sort();
    expect(registered).toEqual(Object.keys(EXPECTED).sort());
    for (const route of t.app.apiRoutes)
      expect(route.access, `${route.method} ${route.url}`).toBe(EXPECTED[`${route.method} ${route.url}`]);
  });

  it('enforces each route for anonymous, student, admin and a disabled user', async () => {
    const failures: string[] = [];
    for (const route of t.app.apiRoutes) {
      const key = `${route.method} ${route.url}`;
      if (SELF_CHANGING.has(key)) continue;
      // An :email parameter is the caller's own (a trainee may read their own progress); other ids match nothing.
      const urlFor = (who?: keyof typeof emails) =>
        route.url
          .replace(/:email/g, encodeURIComponent(who ? emails[who] : 'nobody@example.com'))
          .replace(/:[a-zA-Z]+/g, 'no-such-id');
      const call = async (token?: string, who?: keyof typeof emails) =>
        (
          await t.request({
            method: route.method as 'GET',
            url: urlFor(who),
            ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }),
            ...(token ? { cookie: token } : {}),
          })
        ).statusCode;
      const expected = EXPECTED[key];
      const anonymous = await call();
      const disabled = await call(await tokens.disabled(), 'disabled');
      if (isStream(route.url)) {
        if (anonymous !== 401 || disabled !== 401)
          failures.push(`${key}: anonymous ${anonymous}, disabled ${disabled}`);
        continue;
      }
      const student = await call(await tokens.student(), 'student');
      const admin = await call(await tokens.admin(), 'admin');
      const pending = await call(await tokens.pending(), 'pending');
      const allowed = (status: number) => status !== 401 && status !== 403;
      const wants = {
        anonymous: expected === 'public' ? allowed(anonymous) : anonymous === 401,
        student: expected === 'admin' ? student === 403 : allowed(student),
        admin: allowed(admin),
        disabled: expected === 'public' ? allowed(disabled) : disabled === 401,
        pending: expected === 'public' ? allowed(pending) : pending === 401,
      };
      for (const [who, ok] of Object.entries(wants)) {
        if (!ok) {
          failures.push(
            `${key} (${expected}) as ${who}: anonymous ${anonymous}, student ${student}, admin ${admin}, disabled ${disabled}, pending ${pending}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets an account whose printed password must change call only the password change (and public routes)', async () => {
    const due = await t.createUser({ role: 'admin', must_change_password: 1 });
    const client = { ip: '127.0.0.1', userAgent: 'matrix' };
    const failures: string[] = [];
    for (const route of t.app.apiRoutes) {
      const key = `${route.method} ${route.url}`;
      if (SELF_CHANGING.has(key)) continue;
      const token = (await createSession(t.db, due.id, client)).token;
      const response = await t.request({
        method: route.method as 'GET',
        url: route.url.replace(/:email/g, encodeURIComponent(due.email)).replace(/:[a-zA-Z]+/g, 'no-such-id'),
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }),
        cookie: token,
      });
      const refused = response.statusCode === 403;
      const wantsRefusal = EXPECTED[key] !== 'public' && !ALLOWED_BEFORE_PASSWORD_CHANGE.has(key);
      if (refused !== wantsRefusal) failures.push(`${key}: ${response.statusCode}`);
      else if (refused && response.json().error !== PASSWORD_CHANGE_DUE) failures.push(`${key}: ${response.body}`);
    }
    expect(failures).toEqual([]);
  });
});

/**
 * Ways of writing a route's path that a router which decodes percent-escapes may read as the route, while a test
 * of the raw URL would not (the bypass found by the security review: `/%61pi/users` read the users list).
 */
export function pathVariants(path: string): string[] {
  const escape = (char: string, upper: boolean) => {
    const hex = char.charCodeAt(0).toString(16);
    return `%${upper ? hex.toUpperCase() : hex}`;
  };
  const segments = path.split('/');
  const own = segments[2] ?? '';
  const withOwn = (replacement: string) => [...segments.slice(0, 2), replacement, ...segments.slice(3)].join('/');
  const variants = [
    path.replace('/api', `/${escape('a', false)}pi`),
    path.replace('/api', `/a${escape('p', true)}i`),
    path.replace('/api', `/${escape('a', false)}${escape('p', true)}${escape('i', false)}`),
    `/${path}`,
    path.replace('/api/', '/api//'),
    path.replace('/api/', '/api/./'),
    path.replace('/api/', '/x/../api/'),
    path.replace('/api/', `/api${escape('/', true)}`),
  ];
  if (/^[a-z]/i.test(own)) variants.push(withOwn(`${escape(own[0]!, false)}${own.slice(1)}`));
  if (own.length > 1) variants.push(withOwn(`${own[0]}${escape(own[1]!, true)}${own.slice(2)}`));
  return variants;
}

describe('encoded and doubled paths', () => {
  let t: TestApp;
  let adminToken: string;
  let studentToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    const client = { ip: '127.0.0.1', userAgent: 'matrix' };
    adminToken = (await createSession(t.db, (await t.createUser({ role: 'admin' })).id, client)).token;
    studentToken = (await createSession(t.db, (await t.createUser({ role: 'student' })).id, client)).token;
  });
  afterAll(() => t.close());

  it('reach no route: every variant of every route is refused before routing, whoever calls', async () => {
    // Over a real socket: an in-process client would tidy `/./` and `/../` away before the server saw them.
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(address);
    const failures: string[] = [];
    for (const route of t.app.apiRoutes) {
      const plain = route.url.replace(/:[a-zA-Z]+/g, 'no-such-id');
      for (const url of pathVariants(plain)) {
        for (const [who, token] of [
          ['anonymous', undefined],
          ['student', studentToken],
          ['admin', adminToken],
        ] as const) {
          const { status, body } = await rawRequest(Number(port), route.method, url, token);
          if (status !== 400 || JSON.parse(body).error !== 'The request path is malformed.') {
            failures.push(`${route.method} ${url} as ${who}: ${status}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('are refused for a foreign Origin on every state-changing route, as the plain paths are', async () => {
    const failures: string[] = [];
    for (const route of t.app.apiRoutes.filter((r) => r.method !== 'GET')) {
      const plain = route.url.replace(/:[a-zA-Z]+/g, 'no-such-id');
      for (const url of [plain, ...pathVariants(plain)]) {
        const response = await t.request({
          method: route.method as 'POST',
          url,
          body: {},
          cookie: adminToken,
          headers: { origin: 'https://evil.example' },
        });
        if (response.statusCode !== 403 && response.statusCode !== 400)
          failures.push(`${route.method} ${url}: ${response.statusCode}`);
        if (url === plain && response.statusCode !== 403)
          failures.push(`${route.method} ${url} (plain): ${response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses /%61pi/users, which gave an anonymous caller every account before the fix', async () => {
    const response = await t.request({ method: 'GET', url: '/%61pi/users' });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toContain('@example.com');
  });
});

/** One request with the path sent byte for byte as given. */
function rawRequest(
  port: number,
  method: string,
  path: string,
  token?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const hasBody = method !== 'GET' && method !== 'DELETE';
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host: 'localhost',
          origin: ORIGIN,
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
          ...(token ? { cookie: `${SESSION_COOKIE}=${token}` } : {}),
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(hasBody ? '{}' : undefined);
  });
}

describe('the API description', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is for signed-in admins only: the document, its browser and its files', async () => {
    const student = await t.userWithSession('student');
    const admin = await t.userWithSession('admin');
    for (const url of ['/api/docs', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/index.html']) {
      const as = async (cookie?: string) =>
        (await t.request({ method: 'GET', url, ...(cookie ? { cookie } : {}) })).statusCode;
      expect([url, await as(), await as(student.cookie)]).toEqual([url, 401, 403]);
      expect([200, 302]).toContain(await as(admin.cookie));
    }
  });
});
