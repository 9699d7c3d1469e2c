import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';

describe('health and the API frame', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 when the database is reachable', async () => {
    const response = await t.request({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown API path with a JSON 404, never the SPA', async () => {
    const response = await t.request({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual({ error: 'There is no such API route.' });
  });

  it('serves the OpenAPI description to an admin', async () => {
    const { cookie } = await t.userWithSession('admin');
    const response = await t.request({ method: 'GET', url: '/api/docs/json', cookie });
    expect(response.statusCode).toBe(200);
    const spec = response.json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toContain('/api/health');
  });

  it('sends security headers with a script policy that allows no inline script', async () => {
    const response = await t.request({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("'unsafe-inline'; script");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('turns bad JSON into a readable 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:8080' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('The request body is not valid JSON.');
  });
});

describe('health when the database is gone', () => {
  it('answers 503', async () => {
    const t = await createTestApp();
    await t.db.destroy();
    const response = await t.request({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json().status).toBe('unavailable');
    await t.close();
  });
});

describe('operations', () => {
  it('answers liveness while the database is gone, and readiness 503', async () => {
    const t = await createTestApp();
    await t.db.destroy();
    expect((await t.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    await t.close();
  });

  it('tags every answer with its own request id, and keeps a proxy id only behind a trusted proxy', async () => {
    const direct = await createTestApp();
    const first = await direct.request({ method: 'GET', url: '/api/health' });
    const second = await direct.request({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'forged-by-client-123' },
    });
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    await direct.close();

    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    const kept = await proxied.request({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-7f3a9c21' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a9c21');
    await proxied.close();
  });

  it('marks API answers with personal data no-store', async () => {
    const t = await createTestApp();
    const { cookie } = await t.userWithSession('student');
    const profile = await t.request({ method: 'GET', url: '/api/profile', cookie });
    expect(profile.statusCode).toBe(200);
    expect(profile.headers['cache-control']).toBe('no-store');
    await t.close();
  });
});
