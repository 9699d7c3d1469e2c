import { MAX_LIVE_API_TOKENS } from '@tradecraft/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';
import { API_TOKEN_MESSAGES } from '../../plugins/access';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

async function adminWithToken(scope: 'read' | 'read-write', name = 'nightly export') {
  const { user, cookie } = await t.userWithSession('admin');
  const response = await t.request({
    method: 'POST',
    url: '/api/tokens',
    cookie,
    body: { name, scope, expiresInDays: 30 },
  });
  expect(response.statusCode).toBe(201);
  return { user, cookie, token: response.json().token as string, id: response.json().apiToken.id as string };
}

const withToken = (token: string, method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  t.request({ method, url, headers: { authorization: `Bearer ${token}` }, ...(body !== undefined ? { body } : {}) });

const difficulty = async () =>
  (await t.db.selectFrom('settings').select('value').where('key', '=', 'difficulty').executeTakeFirst())?.value;

describe('API tokens', () => {
  it('shows a new token once and stores only its hash', async () => {
    const { cookie, token, id } = await adminWithToken('read');
    expect(token).toMatch(/^tc_[\w-]{43}$/);
    const row = await t.db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token.slice(3));
    const list = await t.request({ method: 'GET', url: '/api/tokens', cookie });
    expect(list.body).not.toContain(token.slice(3));
    expect(list.json().tokens).toEqual([
      expect.objectContaining({ id, name: 'nightly export', scope: 'read', lastUsedAt: null }),
    ]);
  });

  it('signs a request in as its owner, without a cookie, and records when it was last used', async () => {
    const { token, id } = await adminWithToken('read');
    const response = await withToken(token, 'GET', '/api/users/stats');
    expect(response.statusCode).toBe(200);
    const row = await t.db
      .selectFrom('api_tokens')
      .select('last_used_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });

  it('refuses a read-only token anything but reading, and changes nothing', async () => {
    const { token } = await adminWithToken('read');
    const before = await difficulty();
    const response = await withToken(token, 'PUT', '/api/settings/difficulty', { difficulty: 5 });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(API_TOKEN_MESSAGES.readOnly);
    expect(await difficulty()).toBe(before);
  });

  it('lets a read-write token change data, recorded in the audit trail under the token name', async () => {
    const { user, token } = await adminWithToken('read-write', 'CI upload');
    const response = await withToken(token, 'PUT', '/api/settings/difficulty', { difficulty: 5 });
    expect(response.statusCode).toBe(200);
    const entries = await t.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'details'])
      .where('action', '=', 'API token change')
      .execute();
    expect(entries).toEqual([
      {
        actor: `${user.email} (API token "CI upload")`,
        action: 'API token change',
        details: 'PUT /api/settings/difficulty answered 200',
      },
    ]);
  });

  it('stops working when revoked, and a revoked token is listed as such', async () => {
    const { cookie, token, id } = await adminWithToken('read');
    const revoked = await t.request({ method: 'DELETE', url: `/api/tokens/${id}`, cookie });
    expect(revoked.json().revokedAt).not.toBeNull();
    const response = await withToken(token, 'GET', '/api/users/stats');
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe(API_TOKEN_MESSAGES.invalid);
  });

  it('stops working when it expires', async () => {
    const { token, id } = await adminWithToken('read');
    await t.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    expect((await withToken(token, 'GET', '/api/users/stats')).statusCode).toBe(401);
  });

  it('opens nothing once its owner is no longer an admin', async () => {
    const { user, token } = await adminWithToken('read');
    await t.db.updateTable('users').set({ role: 'student' }).where('id', '=', user.id).execute();
    expect((await withToken(token, 'GET', '/api/sim/list')).statusCode).toBe(401);
  });

  it('may not manage tokens: making or revoking one needs a signed-in browser', async () => {
    const { token, id } = await adminWithToken('read-write');
    const made = await withToken(token, 'POST', '/api/tokens', { name: 'more', scope: 'read', expiresInDays: 1 });
    expect(made.statusCode).toBe(403);
    expect(made.json().error).toBe(API_TOKEN_MESSAGES.notHere);
    expect((await withToken(token, 'DELETE', `/api/tokens/${id}`)).statusCode).toBe(403);
    expect(await t.db.selectFrom('api_tokens').select('id').execute()).toHaveLength(1);
  });

  it('answers a malformed Authorization header with a readable 401', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/users/stats',
      headers: { authorization: 'Token abc' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('The Authorization header must be "Bearer <token>".');
  });

  it('cannot revoke another admin’s token', async () => {
    const { id } = await adminWithToken('read');
    const other = await t.userWithSession('admin');
    const response = await t.request({ method: 'DELETE', url: `/api/tokens/${id}`, cookie: other.cookie });
    expect(response.statusCode).toBe(404);
    const row = await t.db.selectFrom('api_tokens').select('revoked_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
  });

  it('refuses a token without a name, or lasting longer than a year, saying why', async () => {
    const { cookie } = await t.userWithSession('admin');
    const response = await t.request({
      method: 'POST',
      url: '/api/tokens',
      cookie,
      body: { name: ' ', scope: 'read', expiresInDays: 400 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().issues.map((issue: { message: string }) => issue.message)).toEqual([
      'Name the token (what it is for).',
      'A token lasts at most 365 days.',
    ]);
    expect(await t.db.selectFrom('api_tokens').select('id').execute()).toHaveLength(0);
  });

  it(`holds at most ${MAX_LIVE_API_TOKENS} live tokens per admin`, async () => {
    const { user, cookie } = await t.userWithSession('admin');
    const now = new Date().toISOString();
    await t.db
      .insertInto('api_tokens')
      .values(
        Array.from({ length: MAX_LIVE_API_TOKENS }, (_, index) => ({
          id: `token-${index}`,
          user_id: user.id,
          name: `token ${index}`,
          token_hash: `hash-${index}`,
          scope: 'read' as const,
          created_at: now,
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          last_used_at: null,
          revoked_at: null,
        })),
      )
      .execute();
    const response = await t.request({
      method: 'POST',
      url: '/api/tokens',
      cookie,
      body: { name: 'one more', scope: 'read', expiresInDays: 1 },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatch(/revoke one you no longer use/);
  });

  it('answers GET /api/auth/me with the token’s owner', async () => {
    const { user, token } = await adminWithToken('read');
    const me = await withToken(token, 'GET', '/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ id: user.id, email: user.email, role: 'admin' });
    const unknown = await withToken('tc_not-a-real-token-but-long-enough', 'GET', '/api/auth/me');
    expect(unknown.statusCode).toBe(401);
  });

  it('may not grant roles: approving a registration as admin or changing a role needs a signed-in browser', async () => {
    const { token } = await adminWithToken('read-write');
    const pending = await t.createUser({ role: 'pending' });
    const asAdmin = await withToken(token, 'POST', `/api/users/${pending.id}/approve`, { role: 'admin' });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().error).toBe(API_TOKEN_MESSAGES.roleGrant);
    const student = await t.createUser({ role: 'student' });
    const promoted = await withToken(token, 'PATCH', `/api/users/${student.id}`, { role: 'admin' });
    expect(promoted.statusCode).toBe(403);
    expect(promoted.json().error).toBe(API_TOKEN_MESSAGES.roleGrant);
    const roles = await t.db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('id', 'in', [pending.id, student.id])
      .orderBy('id')
      .execute();
    expect(Object.fromEntries(roles.map((row) => [row.id, row.role]))).toEqual({
      [pending.id]: 'pending',
      [student.id]: 'student',
    });
    // Approving a trainee and editing names stay open to a script.
    expect((await withToken(token, 'POST', `/api/users/${pending.id}/approve`, { role: 'student' })).statusCode).toBe(
      200,
    );
    expect((await withToken(token, 'PATCH', `/api/users/${student.id}`, { designation: 'SOC Lead' })).statusCode).toBe(
      200,
    );
  });

  it('is revoked when its owner is demoted: promoting them again does not bring it back', async () => {
    const { user, token, id } = await adminWithToken('read');
    const other = await t.userWithSession('admin');
    const demoted = await t.request({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      cookie: other.cookie,
      body: { role: 'student' },
    });
    expect(demoted.statusCode).toBe(200);
    await t.request({ method: 'PATCH', url: `/api/users/${user.id}`, cookie: other.cookie, body: { role: 'admin' } });
    expect((await withToken(token, 'GET', '/api/users/stats')).statusCode).toBe(401);
    const row = await t.db.selectFrom('api_tokens').select('revoked_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
    const audit = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'edit user')
      .orderBy('id')
      .execute();
    expect(audit[0]!.details).toBe(`Edited ${user.email}: role: admin → student; revoked 1 API token`);
  });

  it('is revoked by a password change unless the owner keeps it', async () => {
    const { cookie, token } = await adminWithToken('read');
    const change = (body: Record<string, unknown>, session: string) =>
      t.request({ method: 'POST', url: '/api/auth/password', cookie: session, body });
    const first = await change(
      {
        currentPassword: PASSWORD,
        newPassword: 'N3w!password',
        confirmPassword: 'N3w!password',
        revokeApiTokens: false,
      },
      cookie,
    );
    expect(first.statusCode).toBe(200);
    expect((await withToken(token, 'GET', '/api/users/stats')).statusCode).toBe(200);
    const session = first.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const second = await change(
      { currentPassword: 'N3w!password', newPassword: 'N3w!password2', confirmPassword: 'N3w!password2' },
      session,
    );
    expect(second.statusCode).toBe(200);
    expect((await withToken(token, 'GET', '/api/users/stats')).statusCode).toBe(401);
  });

  it('is revoked by "end all other sessions" unless the owner keeps it', async () => {
    const { cookie, token } = await adminWithToken('read');
    const kept = await t.request({
      method: 'POST',
      url: '/api/security/sessions/end-others',
      cookie,
      body: { revokeApiTokens: false },
    });
    expect(kept.json()).toEqual({ ok: true, revokedApiTokens: 0 });
    expect((await withToken(token, 'GET', '/api/users/stats')).statusCode).toBe(200);
    const ended = await t.request({ method: 'POST', url: '/api/security/sessions/end-others', cookie, body: {} });
    expect(ended.json()).toEqual({ ok: true, revokedApiTokens: 1 });
    expect((await withToken(token, 'GET', '/api/users/stats')).statusCode).toBe(401);
  });

  it('records its last use at most once a minute', async () => {
    const { token, id } = await adminWithToken('read');
    const lastUsed = async () =>
      (await t.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow())
        .last_used_at;
    await withToken(token, 'GET', '/api/users/stats');
    const first = await lastUsed();
    await withToken(token, 'GET', '/api/users/stats');
    expect(await lastUsed()).toBe(first);
    const longAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    await t.db.updateTable('api_tokens').set({ last_used_at: longAgo }).where('id', '=', id).execute();
    await withToken(token, 'GET', '/api/users/stats');
    expect(await lastUsed()).not.toBe(longAgo);
  });
});
