import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../test/helper';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('framework errors', () => {
  it.each([
    ['a malformed percent-encoding', 'GET', '/api/sim/%E0%A4%Amarker', 400, 'The address of the request is not valid.'],
    [
      'an over-long path parameter',
      'GET',
      `/api/sim/marker${'a'.repeat(300)}`,
      414,
      'The address of the request is too long.',
    ],
    ['an unknown API route', 'GET', '/api/marker-route', 404, 'There is no such API route.'],
  ])('answers %s in its own words without quoting the URL', async (_name, method, url, status, message) => {
    const response = await t.app.inject({ method: method as 'GET', url });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: message });
    expect(response.body).not.toContain('marker');
  });

  it('refuses a path written another way as such even when its parameter is too long for the router', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/%72%65mediation/${'a'.repeat(300)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request path is malformed.' });
  });

  it('answers a Content-Length that does not match the body without the framework message', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-length': '5', origin: ORIGIN },
      payload: '{"email":"a@b.c"}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request body does not match its Content-Length.' });
  });
});
