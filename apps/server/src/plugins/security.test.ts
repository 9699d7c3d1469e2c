import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';

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
      await t.request({ method: 'PATCH', url: '/api/profile', cookie, body: { firstName: 'Dana\u0000', lastName: 'Analyst', designation: '' } }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'The request contains a NUL character (U+0000); remove it and try again.' });
    }
    const profile = await t.request({ method: 'GET', url: '/api/profile', cookie });
    expect(profile.json().profile.firstName).toBe('Test');
  });
});
