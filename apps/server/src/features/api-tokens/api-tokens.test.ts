import { MAX_LIVE_API_TOKENS } from '@tradecraft/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
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

const withToken = (token: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) =>
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
});
