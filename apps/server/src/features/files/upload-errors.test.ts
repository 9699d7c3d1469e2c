import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allowUndeclaredStatus, createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';
import { UPLOAD_UNREADABLE } from './read-upload';

// What an upload route answers when something fails: the multipart parser's failures are the client's (400,
// logged at info); a scenario holding a NUL is the checker's refusal (400, nothing stored); anything else is a
// 500 logged at error. Each on SQLite and, with TEST_DATABASE_URL, PostgreSQL.

const scenarioJson = (name: string) =>
  JSON.stringify({
    name,
    type: 'Phishing',
    difficulty: 1,
    description: 'A short drill.',
    steps: [
      {
        kind: 'choice',
        id: 'one',
        title: 'One',
        description: 'Pick the right answer.',
        options: [{ text: 'Report it to the security team' }, { text: 'Ignore' }],
        correct_option: 0,
      },
    ],
  });

describe('errors on upload routes', () => {
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await t.userWithSession('admin')).cookie;
  });
  afterAll(() => t.close());

  const multipart = (content: Buffer | string, boundary = `----tradecraft${randomBytes(8).toString('hex')}`) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="drill.json"\r\n` +
          'Content-Type: application/json\r\n\r\n',
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const send = (url: string, payload: Buffer, boundary: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        origin: ORIGIN,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: `${SESSION_COOKIE}=${cookie}`,
      },
      payload,
    });
  const upload = (url: string, content: string) => {
    const boundary = `----tradecraft${randomBytes(8).toString('hex')}`;
    return send(url, multipart(content, boundary), boundary);
  };
  const scenarioNames = async () =>
    (await t.db.selectFrom('scenarios').select('name').execute()).map((row) => row.name);

  it.each(['/api/sim/upload-scenario', '/api/sim/check-scenario', '/api/sim/import-stix'])(
    'answers a multipart body cut off in its part header on %s with 400, logged at info',
    async (url) => {
      const info = vi.spyOn(t.app.log, 'info');
      const boundary = 'cutoffboundary';
      const whole = multipart('{"type": "bundle"}', boundary);
      const response = await send(url, whole.subarray(0, 40), boundary);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(UPLOAD_UNREADABLE);
      expect(info).toHaveBeenCalledWith(expect.anything(), 'malformed multipart body');
      info.mockRestore();
    },
  );

  it('refuses a scenario named with a NUL (a JSON escape) and stores nothing', async () => {
    const response = await upload('/api/sim/upload-scenario', scenarioJson('a\u0000b'));
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toContainEqual({
      path: 'name',
      message: 'contains a NUL character; text may hold tabs and line breaks but no other control characters',
    });
    expect(await scenarioNames()).not.toContain('a\u0000b');
    const checked = await upload('/api/sim/check-scenario', scenarioJson('a\u0000b'));
    expect(checked.json()).toMatchObject({ ok: false, problems: [expect.stringContaining('NUL character')] });
  });

  it('refuses a YAML scenario with an escape character in a step title', async () => {
    const yaml = scenarioJson('Escaped').replace('"title":"One"', '"title":"One\\u001b[31m"');
    const response = await upload('/api/sim/upload-scenario', yaml);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toContainEqual(expect.objectContaining({ path: 'steps[0].title' }));
  });

  it('answers a database failure during an upload with 500 logged at error, never "could not be read"', async () => {
    const failing = await createTestApp();
    try {
      const admin = await failing.userWithSession('admin');
      await sql`drop table audit_log`.execute(failing.db);
      allowUndeclaredStatus(500); // the broken database is the point
      const error = vi.spyOn(failing.app.log, 'error');
      const boundary = `----tradecraft${randomBytes(8).toString('hex')}`;
      const response = await failing.app.inject({
        method: 'POST',
        url: '/api/sim/upload-scenario',
        headers: {
          origin: ORIGIN,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          cookie: `${SESSION_COOKIE}=${admin.cookie}`,
        },
        payload: multipart(scenarioJson('Audited drill'), boundary),
      });
      expect(response.statusCode).toBe(500);
      expect(response.json().error).not.toBe(UPLOAD_UNREADABLE);
      expect(error).toHaveBeenCalledWith(expect.anything(), 'request failed');
    } finally {
      await failing.close();
    }
  });
});
