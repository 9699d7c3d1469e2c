import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../test/helper';
import { loadConfig } from '../config';
import { SESSION_COOKIE } from './sessions.repository';
import { ambiguousPath } from './security';

// Found by the bad-input campaign: PostgreSQL refuses U+0000 in text, so such input answered 500 there.
describe('input holding a NUL character', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await t.userWithSession('admin')).cookie;
  });
  afterAll(() => t.close());

  it('is refused with 400 in a path parameter, a query and a JSON body, on either database', async () => {
    const responses = [
      await t.request({ method: 'GET', url: '/api/runs/%00', cookie }),
      await t.request({ method: 'GET', url: '/api/audit/logs?actor=a%00b', cookie }),
      await t.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        body: { firstName: 'Dana\u0000', lastName: 'Analyst', designation: '' },
      }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'The request contains a NUL character (U+0000); remove it and try again.',
      });
    }
    const profile = await t.request({ method: 'GET', url: '/api/profile', cookie });
    expect(profile.json().profile.firstName).toBe('Test');
  });
});

describe('host names and origins', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp({ TRUSTED_HOSTS: 'training.example.org, 10.1.2.3:8443' });
    cookie = (await t.userWithSession('admin')).cookie;
  });
  afterAll(() => t.close());

  const profileChange = (headers: Record<string, string>) =>
    t.request({
      method: 'PATCH',
      url: '/api/profile',
      cookie,
      body: { firstName: 'Changed', lastName: 'Analyst', designation: '' },
      headers,
    });

  it('refuses a rebinding page: its Origin matches its own Host, and neither is this site', async () => {
    const response = await profileChange({ host: 'evil.test:8080', origin: 'http://evil.test:8080' });
    expect(response.statusCode).toBe(421);
    expect(response.json()).toEqual({ error: 'This server does not answer for that host name.' });
    const read = await t.request({ method: 'GET', url: '/api/users', cookie, headers: { host: 'evil.test' } });
    expect(read.statusCode).toBe(421);
  });

  it('compares Origin exactly with PUBLIC_ORIGIN: another scheme or port is another origin', async () => {
    for (const origin of ['https://localhost:8080', 'http://localhost:9999', 'http://evil.test:8080', 'null']) {
      const response = await profileChange({ origin });
      expect(response.statusCode, origin).toBe(403);
      expect(response.json()).toEqual({ error: 'Cross-origin requests are not allowed.' });
    }
    expect((await t.request({ method: 'GET', url: '/api/profile', cookie })).json().profile.firstName).toBe('Test');
  });

  it('accepts PUBLIC_ORIGIN, the loopback names on its port while it is local, and TRUSTED_HOSTS', async () => {
    for (const [host, origin] of [
      ['localhost:8080', 'http://localhost:8080'],
      ['127.0.0.1:8080', 'http://127.0.0.1:8080'],
      ['training.example.org', 'http://training.example.org'],
      ['10.1.2.3:8443', 'http://10.1.2.3:8443'],
    ] as const) {
      const response = await profileChange({ host, origin });
      expect(response.statusCode, origin).toBe(200);
    }
  });

  it('answers the health check whatever the Host, for load balancers that dial the address', async () => {
    const response = await t.request({ method: 'GET', url: '/api/health', headers: { host: '192.0.2.10:8080' } });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a TRUSTED_HOSTS entry that is not a host name', () => {
    expect(() => loadConfig({ TRUSTED_HOSTS: 'http://x.example/path' })).toThrow(/TRUSTED_HOSTS/);
  });
});

describe('actions without a body', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('accept a POST with no body and no Content-Type (sign out, mark read, next, end)', async () => {
    const { cookie } = await t.userWithSession('student');
    const read = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${cookie}` },
    });
    expect(read.statusCode).toBeLessThan(300);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${cookie}` },
    });
    expect(logout.statusCode).toBeLessThan(300);
    expect((await t.request({ method: 'GET', url: '/api/profile', cookie })).statusCode).toBe(401);
  });

  it('still refuses a body sent as a form, which a cross-site page could post', async () => {
    const { cookie } = await t.userWithSession('student');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: {
        origin: ORIGIN,
        cookie: `${SESSION_COOKIE}=${cookie}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'a=1',
    });
    expect(response.statusCode).toBe(415);
  });

  it('answers a route that needs a body with a readable 400 when none comes', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN } });
    expect(response.statusCode).toBe(400);
    expect(typeof response.json().error).toBe('string');
  });
});

describe('ambiguousPath', () => {
  it('passes plain paths and escapes of reserved characters (an email in a path)', () => {
    expect(ambiguousPath('/api/progress/user/dana%40example.com?x=%61')).toBeNull();
    expect(ambiguousPath('/assets/index-3f2a.js')).toBeNull();
  });

  it('names escaped letters, digits, dots, slashes, doubled slashes and dot segments', () => {
    for (const path of [
      '/%61pi/users',
      '/api/%75sers',
      '/api/users%2Fx',
      '/api/%2e%2e/x',
      '//api/users',
      '/api//users',
      '/api/./users',
      '/x/../api',
      '/api/%7E',
      '/api/%5c',
    ]) {
      expect(ambiguousPath(path), path).toBe('The request path is malformed.');
    }
  });
});
