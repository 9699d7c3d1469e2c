import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

function scenarioYaml(id: string, extra = ''): string {
  return `id: ${id}
name: Checked scenario ${id}
type: Data Breach
difficulty: 3
description: Stolen credentials open a cloud data warehouse.
${extra}steps:
  - id: first
    title: An extortion email
    description: Someone claims to hold your customer data.
    mitre_attack: T1078
    options:
      - text: Check warehouse logins for unknown clients
        feedback: Yes.
      - text: Pay at once
        next_step: null
    correct_option: 0
  - id: second
    title: Rotate
    description: The logins came from a contractor's stolen password.
    options: [Rotate every credential and enforce MFA, Ignore it]
    correct_option: 0
`;
}

describe('POST /api/sim/check-scenario', () => {
  let t: TestApp;
  let admin: { cookie: string };
  let student: { cookie: string };
  const signedIn = async (role: 'admin' | 'student') => {
    const user = await t.createUser({ role });
    return { cookie: await t.signIn(user.email) };
  };

  const send = (url: string, content: Buffer | string, options: { cookie?: string; field?: string } = {}) => {
    const boundary = `----tradecraft${randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="drill.yaml"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url,
      headers: {
        origin: ORIGIN,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: `${SESSION_COOKIE}=${options.cookie ?? admin.cookie}`,
      },
      payload,
    });
  };
  const check = (content: Buffer | string, options: { cookie?: string; field?: string } = {}) =>
    send('/api/sim/check-scenario', content, options);

  const counts = async () => ({
    scenarios: (await t.db.selectFrom('scenarios').select('id').execute()).length,
    files: (await t.db.selectFrom('files').select('id').execute()).length,
    audit: (await t.db.selectFrom('audit_log').select('id').execute()).length,
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn('admin');
    student = await signedIn('student');
  });
  afterAll(() => t.close());

  it('lists every problem of a broken file and stores nothing', async () => {
    const before = await counts();
    const broken = scenarioYaml('broken-check')
      .replace('mitre_attack: T1078', 'mitre_attack: T9999')
      .replace('next_step: null', 'next_step: nowhere');
    const response = await check(broken);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      filename: 'drill.yaml',
      size: Buffer.byteLength(broken),
      ok: false,
      problems: [
        'steps[0].options[1].next_step: no step with id "nowhere"',
        'steps[0].mitre_attack: "T9999" is not an active ATT&CK Enterprise technique',
      ],
      issues: [
        { path: 'steps[0].options[1].next_step', message: 'no step with id "nowhere"' },
        { path: 'steps[0].mitre_attack', message: '"T9999" is not an active ATT&CK Enterprise technique' },
      ],
      // Warnings are listed apart and beside the problems.
      warnings: [expect.stringMatching(/^steps: the correct option is the longest one in 2 of 2 choice steps/)],
      scenario: null,
    });
    expect(await counts()).toEqual(before);
  });

  it('says a good file would publish, with its summary and warnings, and publishes nothing', async () => {
    const before = await counts();
    const response = await check(scenarioYaml('good-check'));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      ok: true,
      problems: [],
      issues: [],
      scenario: { id: 'good-check', name: 'Checked scenario good-check', difficulty: 3, stepCount: 2 },
    });
    // The longest-option advice: the right option is the longest in both choice steps.
    expect(body.warnings).toEqual([expect.stringContaining('always picking the longest option scores well')]);
    expect(await counts()).toEqual(before);
    const list = await t.app.inject({ url: '/api/sim/list', headers: { cookie: `${SESSION_COOKIE}=${admin.cookie}` } });
    expect(list.json().scenarios.map((scenario: { id: string }) => scenario.id)).not.toContain('good-check');
  });

  it('says a file with the id of a scenario becomes its draft, and refuses the id of an archived one', async () => {
    const text = scenarioYaml('taken-check');
    expect((await send('/api/sim/upload-scenario', text)).statusCode).toBe(201);
    const existing = (await check(text)).json();
    expect(existing.ok).toBe(true);
    expect(existing.warnings[0]).toBe(
      'id: the scenario "taken-check" exists: an upload makes this file its draft, to publish from the editor; runs in progress keep their version',
    );
    const archived = await t.app.inject({
      method: 'DELETE',
      url: '/api/sim/delete-scenario/taken-check',
      headers: { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${admin.cookie}` },
    });
    expect(archived.statusCode).toBe(200);
    expect((await check(text)).json()).toMatchObject({
      ok: false,
      problems: ['id: a scenario with the id "taken-check" existed and was deleted; give the file another id'],
    });
  });

  it('reads files as the upload does: empty, binary, none sent, over 1 MB', async () => {
    expect((await check('')).json()).toMatchObject({ ok: false, problems: ['(file): the file is empty'] });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);
    expect((await check(png)).json().problems).toEqual([
      '(file): is not a text file; upload a scenario written as YAML or JSON (UTF-8 text)',
    ]);
    const none = await check(scenarioYaml('other-field'), { field: 'document' });
    expect(none.statusCode).toBe(400);
    expect(none.json().problems).toEqual(['file: no file was sent; choose a scenario file (YAML or JSON)']);
    const big = await check(scenarioYaml('big-check', `# ${'x'.repeat(1024 * 1024)}\n`));
    expect(big.statusCode).toBe(413);
    expect(big.json().problems).toEqual(['(file): is larger than 1 MB']);
  });

  it('is for admins only', async () => {
    const response = await check(scenarioYaml('student-check'), { cookie: student.cookie });
    expect(response.statusCode).toBe(403);
  });
});
