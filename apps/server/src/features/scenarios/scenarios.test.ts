import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';
import { loadBuiltinScenarios } from './scenarios.loader';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const fixture = (file: string) => fs.readFileSync(new URL(file, `file://${FIXTURES}`));
const quiet = { warn: () => undefined };

/** A scenario file for uploads, small and valid; `extra` replaces fields. */
function scenarioYaml(name: string, extra = ''): string {
  return `name: ${name}
type: Data Breach
difficulty: 4
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

describe('the scenario library API', () => {
  let t: TestApp;
  let admin: { cookie: string; email: string };
  let student: { cookie: string };

  const upload = (content: Buffer | string, options: { filename?: string; cookie?: string; field?: string } = {}) => {
    const boundary = `----tradecraft${randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'scenario.yaml'}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cookie = options.cookie === undefined ? admin.cookie : options.cookie;
    return t.app.inject({
      method: 'POST',
      url: '/api/sim/upload-scenario',
      headers: {
        origin: ORIGIN,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}),
      },
      payload,
    });
  };

  const counts = async () => ({
    scenarios: (await t.db.selectFrom('scenarios').select('id').execute()).length,
    files: (await t.db.selectFrom('files').select('id').execute()).length,
    audit: (await t.db.selectFrom('audit_log').select('id').execute()).length,
  });

  beforeAll(async () => {
    t = await createTestApp();
    const a = await t.userWithSession('admin');
    admin = { cookie: a.cookie, email: a.user.email };
    student = { cookie: (await t.userWithSession('student')).cookie };
    await loadBuiltinScenarios(t.db, FIXTURES, quiet);
  });
  afterAll(() => t.close());

  describe('GET /api/sim/list', () => {
    it('lists every scenario with its step count, marking those of the platform difficulty (3 by default)', async () => {
      const response = await t.request({ method: 'GET', url: '/api/sim/list', cookie: student.cookie });
      expect(response.statusCode).toBe(200);
      const byId = Object.fromEntries(response.json().scenarios.map((s: { id: string }) => [s.id, s]));
      expect(byId['fixture-invoice-phish']).toEqual({
        id: 'fixture-invoice-phish',
        name: 'Fixture invoice phish',
        type: 'Phishing',
        difficulty: 2,
        description: 'A clinic manager reports an unexpected invoice attachment that would not open.',
        stepCount: 4,
        recommended: false,
        startHere: false,
        techniques: expect.any(Array),
        publishedAt: expect.any(String),
        progress: { inProgress: null, best: null, completedRuns: 0 },
      });
      expect(byId['fixture-usb-insider']).toMatchObject({ stepCount: 2, difficulty: 3, recommended: true });
    });

    it('follows the platform difficulty an admin sets', async () => {
      await t.request({
        method: 'PUT',
        url: '/api/settings/difficulty',
        cookie: admin.cookie,
        body: { difficulty: 2 },
      });
      const response = await t.request({ method: 'GET', url: '/api/sim/list', cookie: student.cookie });
      const recommended = response.json().scenarios.filter((s: { recommended: boolean }) => s.recommended);
      expect(recommended.map((s: { id: string }) => s.id)).toEqual(['fixture-invoice-phish']);
      await t.request({
        method: 'PUT',
        url: '/api/settings/difficulty',
        cookie: admin.cookie,
        body: { difficulty: 3 },
      });
    });

    it('needs a signed-in user', async () => {
      expect((await t.request({ method: 'GET', url: '/api/sim/list' })).statusCode).toBe(401);
    });
  });

  describe('GET /api/sim/list/count', () => {
    it('counts the scenarios the list holds, and follows a deletion', async () => {
      const count = async () =>
        (await t.request({ method: 'GET', url: '/api/sim/list/count', cookie: student.cookie })).json().count;
      const listed = (await t.request({ method: 'GET', url: '/api/sim/list', cookie: student.cookie })).json();
      expect(await count()).toBe(listed.scenarios.length);
      await upload(scenarioYaml('Counted scenario', 'id: counted-scenario\n'));
      expect(await count()).toBe(listed.scenarios.length + 1);
      await t.db
        .updateTable('scenarios')
        .set({ deleted_at: new Date().toISOString() })
        .where('id', '=', 'counted-scenario')
        .execute();
      expect(await count()).toBe(listed.scenarios.length);
    });

    it('needs a signed-in user', async () => {
      expect((await t.request({ method: 'GET', url: '/api/sim/list/count' })).statusCode).toBe(401);
    });
  });

  describe('GET /api/sim/:id', () => {
    it("gives a trainee the scenario's card only: no step, title, hint or artifact before the run reaches it", async () => {
      const response = await t.request({
        method: 'GET',
        url: '/api/sim/fixture-invoice-phish',
        cookie: student.cookie,
      });
      expect(response.statusCode).toBe(200);
      const scenario = response.json();
      expect(Object.keys(scenario).sort()).toEqual([
        'description',
        'difficulty',
        'id',
        'name',
        'sources',
        'stepCount',
        'type',
        'view',
      ]);
      expect(scenario).toMatchObject({
        view: 'trainee',
        id: 'fixture-invoice-phish',
        name: 'Fixture invoice phish',
        stepCount: 4,
        sources: [{ title: 'CISA: Phishing guidance' }],
      });
      for (const secret of [
        'An invoice nobody expected',
        'Who else received the same message?',
        'invoices-portal.example',
        'correct_option',
        'next_step',
      ]) {
        expect(response.body).not.toContain(secret);
      }
    });

    it('gives an admin the whole scenario, answers and branches included', async () => {
      const response = await t.request({ method: 'GET', url: '/api/sim/fixture-invoice-phish', cookie: admin.cookie });
      expect(response.statusCode).toBe(200);
      const scenario = response.json();
      expect(scenario).toMatchObject({
        view: 'admin',
        origin: 'builtin',
        stepCount: 4,
        sources: [{ title: 'CISA: Phishing guidance' }],
      });
      expect(scenario.steps[0].correct_option).toBe(0);
      expect(scenario.steps[0].options[0]).toEqual({
        text: 'Pull the message from every mailbox and sandbox the attachment',
        next_step: 'scope',
        feedback: 'Right; find every copy before anyone else opens it.',
      });
      expect(scenario.steps[0].options[2].next_step).toBeNull();
      expect(scenario.steps[1].options[1]).toEqual({ text: 'Wait for the antivirus to catch it' });
    });

    it('answers 404 for an unknown scenario', async () => {
      const response = await t.request({ method: 'GET', url: '/api/sim/no-such-scenario', cookie: student.cookie });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('No such scenario.');
    });
  });

  describe('DELETE /api/sim/:id (and the older /api/sim/delete-scenario/:id)', () => {
    beforeEach(async () => {
      await upload(scenarioYaml('Doomed scenario', 'id: doomed-scenario\n'));
    });

    it('removes the scenario from the list and from reading, with an audit entry', async () => {
      const response = await t.request({ method: 'DELETE', url: '/api/sim/doomed-scenario', cookie: admin.cookie });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true });

      const list = await t.request({ method: 'GET', url: '/api/sim/list', cookie: admin.cookie });
      expect(list.json().scenarios.map((s: { id: string }) => s.id)).not.toContain('doomed-scenario');
      expect(
        (await t.request({ method: 'GET', url: '/api/sim/doomed-scenario', cookie: admin.cookie })).statusCode,
      ).toBe(404);

      const audit = await t.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'delete scenario')
        .executeTakeFirst();
      expect(audit).toMatchObject({
        actor: admin.email,
        screen: 'Scenario Configurator',
        details: 'Deleted scenario "Doomed scenario" (doomed-scenario)',
      });

      const again = await t.request({ method: 'DELETE', url: '/api/sim/doomed-scenario', cookie: admin.cookie });
      expect(again.statusCode).toBe(404);
    });

    it('still deletes at the older address for one release', async () => {
      await upload(scenarioYaml('Older address', 'id: older-address\n'));
      const response = await t.request({
        method: 'DELETE',
        url: '/api/sim/delete-scenario/older-address',
        cookie: admin.cookie,
      });
      expect(response.statusCode).toBe(200);
      expect(
        (await t.request({ method: 'GET', url: '/api/sim/older-address', cookie: admin.cookie })).statusCode,
      ).toBe(404);
    });

    it('is for admins only', async () => {
      const other = await t.request({ method: 'DELETE', url: '/api/sim/fixture-usb-insider', cookie: student.cookie });
      expect(other.statusCode).toBe(403);
      const list = await t.request({ method: 'GET', url: '/api/sim/list', cookie: student.cookie });
      expect(list.json().scenarios.map((s: { id: string }) => s.id)).toContain('fixture-usb-insider');
    });
  });

  describe('POST /api/sim/upload-scenario', () => {
    it('publishes a good file: the summary, the scenario in the list, the original kept, an audit entry', async () => {
      const text = scenarioYaml('Snowflake style extortion');
      const response = await upload(text, { filename: 'C:\\Users\\ana\\..\\extortion.yaml' });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toMatchObject({
        filename: 'extortion.yaml',
        size: Buffer.byteLength(text),
        scenario: {
          id: 'snowflake-style-extortion',
          name: 'Snowflake style extortion',
          type: 'Data Breach',
          difficulty: 4,
          stepCount: 2,
        },
      });
      expect(new Date(body.upload_time).toISOString()).toBe(body.upload_time);

      const list = await t.request({ method: 'GET', url: '/api/sim/list', cookie: student.cookie });
      expect(list.json().scenarios.map((s: { id: string }) => s.id)).toContain('snowflake-style-extortion');

      const stored = await t.db
        .selectFrom('scenarios')
        .selectAll()
        .where('id', '=', 'snowflake-style-extortion')
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({
        origin: 'upload',
        step_count: 2,
        content_hash: createHash('sha256').update(text).digest('hex'),
      });
      expect(JSON.parse(stored.definition).id).toBe('snowflake-style-extortion');
      const file = await t.db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', stored.source_file_id!)
        .executeTakeFirstOrThrow();
      expect(file).toMatchObject({
        purpose: 'scenario_upload',
        filename: 'extortion.yaml',
        content_type: 'application/yaml',
      });
      expect(Buffer.from(file.bytes).toString('utf8')).toBe(text);

      const audit = await t.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'upload scenario')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      expect(audit).toMatchObject({ actor: admin.email, screen: 'Upload Scenario' });
      expect(audit?.details).toContain('"Snowflake style extortion" (snowflake-style-extortion) from extortion.yaml');
    });

    it('publishes the example file offered for download on the upload screen', async () => {
      const example = fs.readFileSync(new URL('../../../../web/public/scenario-example.yaml', import.meta.url));
      const response = await upload(example, { filename: 'scenario-example.yaml' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        scenario: { id: 'example-an-invoice-that-would-not-open', stepCount: 11 },
        warnings: [],
      });
    });

    it('accepts a JSON file', async () => {
      const json = JSON.parse(fixture('usb-insider.json').toString('utf8'));
      json.id = 'json-upload-insider';
      const response = await upload(JSON.stringify(json), { filename: 'insider.json' });
      expect(response.statusCode).toBe(201);
      expect(response.json().scenario).toMatchObject({
        id: 'json-upload-insider',
        type: 'Insider Threat',
        stepCount: 2,
      });
    });

    it('lists every problem of a file that fails the checks, and writes nothing', async () => {
      const before = await counts();
      const broken = scenarioYaml('Broken upload', 'id: broken-upload\n')
        .replace('mitre_attack: T1078', 'mitre_attack: T9999')
        .replace('next_step: null', 'next_step: nowhere')
        .replace('    correct_option: 0\n  - id: second', '    correct_option: 7\n  - id: second');
      const response = await upload(broken);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'Upload failed. Please try again.',
        problems: [
          'steps[0].options[1].next_step: no step with id "nowhere"',
          'steps[0].correct_option: 7 is out of range (2 options)',
          'steps[0].mitre_attack: "T9999" is not an active ATT&CK Enterprise technique',
        ],
        issues: [
          { path: 'steps[0].options[1].next_step', message: 'no step with id "nowhere"' },
          { path: 'steps[0].correct_option', message: '7 is out of range (2 options)' },
          { path: 'steps[0].mitre_attack', message: '"T9999" is not an active ATT&CK Enterprise technique' },
        ],
      });
      expect(await counts()).toEqual(before);
    });

    it('refuses a file over 1 MB with 413 and writes nothing', async () => {
      const before = await counts();
      const big = scenarioYaml('Too big', `# ${'x'.repeat(1024 * 1024)}\n`);
      const response = await upload(big);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({
        error: 'Upload failed. Please try again.',
        problems: ['(file): is larger than 1 MB'],
      });
      expect(await counts()).toEqual(before);
    });

    it('refuses binary and non-UTF-8 files', async () => {
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
      const latin1 = Buffer.from(scenarioYaml('Caf\u00e9 scenario'), 'latin1');
      for (const bytes of [png, latin1]) {
        const response = await upload(bytes);
        expect(response.statusCode).toBe(400);
        expect(response.json().problems).toEqual([
          '(file): is not a text file; upload a scenario written as YAML or JSON (UTF-8 text)',
        ]);
      }
    });

    it('refuses a YAML alias bomb and custom tags quickly', async () => {
      const bomb = [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
        'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
        'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
        'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
        'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
        'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
        'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
        'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
      ].join('\n');
      const started = Date.now();
      const bombed = await upload(bomb);
      expect(bombed.statusCode).toBe(400);
      expect(bombed.json().problems).toEqual([
        '(file): uses aliases (*name) too many times; write the values out instead',
      ]);

      const tagged = await upload(scenarioYaml('Tagged', 'sources: !!js/function "function () { return 1 }"\n'));
      expect(tagged.statusCode).toBe(400);
      expect(tagged.json().problems.join('\n')).toMatch(/tag .* is not allowed/);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it("makes a file whose id exists that scenario's draft (201), and refuses the id of a deleted one (409)", async () => {
      const first = await upload(scenarioYaml('Twice uploaded'));
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ draft: false, number: 1 });
      const before = await counts();
      const again = await upload(
        scenarioYaml('Twice uploaded', 'id: twice-uploaded\n').replace('Rotate', 'Rotate now'),
      );
      expect(again.statusCode).toBe(201);
      expect(again.json()).toMatchObject({ draft: true, number: 2, scenario: { id: 'twice-uploaded' } });
      const draft = await t.request({ method: 'GET', url: '/api/sim/twice-uploaded/draft', cookie: admin.cookie });
      expect(draft.json().definition.steps[1].title).toBe('Rotate now');
      expect(await counts()).toEqual({ ...before, audit: before.audit + 1 });

      await t.request({ method: 'DELETE', url: '/api/sim/delete-scenario/twice-uploaded', cookie: admin.cookie });
      const afterDelete = await upload(scenarioYaml('Another name', 'id: twice-uploaded\n'));
      expect(afterDelete.statusCode).toBe(409);
      expect(afterDelete.json().problems).toEqual([
        'id: a scenario with the id "twice-uploaded" existed and was deleted; give the file another id',
      ]);
      expect((await counts()).files).toBe(before.files);
    });

    it('asks for a file when none is sent', async () => {
      const response = await upload('name: x', { field: 'other' });
      expect(response.statusCode).toBe(400);
      expect(response.json().problems).toEqual(['file: no file was sent; choose a scenario file (YAML or JSON)']);
    });

    it('is for admins only', async () => {
      const before = await counts();
      expect((await upload(scenarioYaml('By a student'), { cookie: student.cookie })).statusCode).toBe(403);
      expect((await upload(scenarioYaml('By nobody'), { cookie: '' })).statusCode).toBe(401);
      expect(await counts()).toEqual(before);
    });
  });
});
