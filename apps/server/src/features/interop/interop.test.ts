import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';
import { loadBuiltinScenarios } from '../scenarios/scenarios.loader';
import { validateStixBundle } from './stix-validation';

const fixture = (file: string) => fs.readFileSync(new URL(`./fixtures/${file}`, import.meta.url));
const quiet = { warn: () => undefined };

describe('STIX 2.1 and Attack Flow in and out (/api/sim/import/stix, /api/sim/:id/stix)', () => {
  let t: TestApp;
  let admin: { cookie: string; email: string };
  let trainee: { cookie: string };

  beforeAll(async () => {
    t = await createTestApp();
    const made = await t.userWithSession('admin');
    admin = { cookie: made.cookie, email: made.user.email };
    trainee = await t.userWithSession('student');
    await loadBuiltinScenarios(t.db, undefined, quiet);
  });
  afterAll(() => t.close());

  const importFile = (content: Buffer | string, options: { cookie?: string; field?: string } = {}) => {
    const boundary = `----tradecraft${randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="bundle.json"\r\n` +
          'Content-Type: application/json\r\n\r\n',
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/sim/import/stix',
      headers: {
        origin: ORIGIN,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: `${SESSION_COOKIE}=${options.cookie ?? admin.cookie}`,
      },
      payload,
    });
  };
  const scenarioCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('scenarios')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('imports the OASIS Poison Ivy report as a draft with its techniques, and audits it', async () => {
    const response = await importFile(fixture('poisonivy.json'));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.summary.source).toBe('report');
    expect(body.summary.steps).toBeGreaterThan(1);
    expect(body.number).toBe(1);
    const history = await t.request({ method: 'GET', url: `/api/sim/${body.id}/versions`, cookie: admin.cookie });
    expect(history.json()).toMatchObject({ currentVersion: null, draft: { number: 1 } });
    // A draft-only scenario is not in the trainee's list.
    const list = await t.request({ method: 'GET', url: '/api/sim/list', cookie: trainee.cookie });
    expect(list.json().scenarios.map((s: { id: string }) => s.id)).not.toContain(body.id);
    const audit = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'import STIX bundle')
      .execute();
    expect(audit.map((row) => row.details).join('\n')).toContain(body.id);
  });

  it('imports the same bundle twice as two drafts', async () => {
    const first = (await importFile(fixture('indicators-for-C2-with-COA.json'))).json();
    const second = await importFile(fixture('indicators-for-C2-with-COA.json'));
    expect(second.statusCode).toBe(201);
    expect(second.json().id).toBe(`${first.id}-2`);
  });

  it('imports the Attack Flow example as a branching skeleton', async () => {
    const response = await importFile(fixture('attack-flow-example.json'));
    expect(response.statusCode).toBe(201);
    expect(response.json().summary.source).toBe('attack-flow');
    expect(response.json().summary.techniques.length).toBeGreaterThan(0);
  });

  it('refuses what is not a STIX bundle with a readable 400, and stores nothing', async () => {
    const before = await scenarioCount();
    const notJson = await importFile('name: not json');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toBe('The file is not JSON: a STIX 2.1 bundle is a JSON object.');
    const notBundle = await importFile(
      JSON.stringify({ type: 'bundle', id: 'bundle--1', objects: [{ type: 'report' }] }),
    );
    expect(notBundle.statusCode).toBe(400);
    expect(notBundle.json().error).toBe('The file is not a valid STIX 2.1 bundle.');
    expect(notBundle.json().problems.length).toBeGreaterThan(0);
    const noFile = await importFile(fixture('poisonivy.json'), { field: 'other' });
    expect(noFile.statusCode).toBe(400);
    const tooLarge = await importFile(Buffer.alloc(5 * 1024 * 1024 + 10, 32));
    expect(tooLarge.statusCode).toBe(413);
    expect(await scenarioCount()).toBe(before);
  });

  it('lets only admins import or export', async () => {
    expect((await importFile(fixture('poisonivy.json'), { cookie: trainee.cookie })).statusCode).toBe(403);
    const scenario = await t.db
      .selectFrom('scenarios')
      .select('id')
      .where('origin', '=', 'builtin')
      .executeTakeFirstOrThrow();
    const response = await t.request({ method: 'GET', url: `/api/sim/${scenario.id}/stix`, cookie: trainee.cookie });
    expect(response.statusCode).toBe(403);
  });

  it('exports every built-in scenario as a bundle that validates against the STIX 2.1 schemas', async () => {
    const scenarios = await t.db.selectFrom('scenarios').select('id').where('origin', '=', 'builtin').execute();
    expect(scenarios.length).toBeGreaterThan(5);
    for (const { id } of scenarios) {
      const response = await t.request({ method: 'GET', url: `/api/sim/${id}/stix`, cookie: admin.cookie });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${id}-v1.stix.json"`);
      const validation = validateStixBundle(response.json());
      expect(validation.ok ? [] : validation.problems).toEqual([]);
      expect(response.json().objects.some((object: { type: string }) => object.type === 'report')).toBe(true);
    }
  });

  it('answers 404 for an unknown scenario or version', async () => {
    expect(
      (await t.request({ method: 'GET', url: '/api/sim/no-such-thing/stix', cookie: admin.cookie })).statusCode,
    ).toBe(404);
    const scenario = await t.db
      .selectFrom('scenarios')
      .select('id')
      .where('origin', '=', 'builtin')
      .executeTakeFirstOrThrow();
    const response = await t.request({
      method: 'GET',
      url: `/api/sim/${scenario.id}/stix?version=99`,
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(404);
  });
});
