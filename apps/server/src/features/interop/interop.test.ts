import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';
import { loadBuiltinScenarios } from '../scenarios/scenarios.loader';
import { STIX_MESSAGES } from '@tradecraft/shared';
import { validateStixBundle } from './stix-validation';

const fixture = (file: string) => fs.readFileSync(new URL(`./fixtures/${file}`, import.meta.url));
const quiet = { warn: () => undefined };

describe('STIX 2.1 and Attack Flow in and out (/api/sim/import-stix, /api/sim/:id/stix)', () => {
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

  const importFile = (
    content: Buffer | string,
    options: { cookie?: string; field?: string; url?: string; filename?: string } = {},
  ) => {
    const boundary = `----tradecraft${randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'bundle.json'}"\r\n` +
          'Content-Type: application/json\r\n\r\n',
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url: options.url ?? '/api/sim/import-stix',
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

  it("imports an intrusion set cut from MITRE's published ATT&CK data, keeping the newest of its two versions", async () => {
    const response = await importFile(fixture('attack-ics-sandworm-team.json'));
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.name).toBe('Sandworm Team');
    expect(body.summary.notMapped[0]).toMatch(/^One object appears more than once \(intrusion-set--381fcf73/);
    expect(body.summary.kept[0]).toBe(
      '4 steps: 3 steps asking for an ICS or Mobile technique id as text, the summary step.',
    );
  });

  it('reads a file that starts with a UTF-8 byte-order mark', async () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixture('indicators-for-C2-with-COA.json')]);
    expect((await importFile(withBom)).statusCode).toBe(201);
  });

  it('refuses an Attack Flow Builder file with a hint to export it as STIX, by its name or its shape', async () => {
    const before = await scenarioCount();
    const byName = await importFile(fixture('attack-flow-example.json'), { filename: 'flow.afb' });
    expect(byName.statusCode).toBe(400);
    expect(byName.json().error).toBe(STIX_MESSAGES.attackFlowBuilder);
    const builderFile = JSON.stringify({ version: '2.1.0', schema: { page: {} }, layout: {}, camera: {}, objects: [] });
    const byShape = await importFile(builderFile, { filename: 'flow.json' });
    expect(byShape.json().error).toBe(STIX_MESSAGES.attackFlowBuilder);
    expect(await scenarioCount()).toBe(before);
  });

  it('still imports at the older address, /api/sim/import/stix', async () => {
    const response = await importFile(fixture('indicators-for-C2-with-COA.json'), { url: '/api/sim/import/stix' });
    expect(response.statusCode).toBe(201);
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

  it('answers with the STIX media type, the report published when the version was', async () => {
    const { id } = await t.db
      .selectFrom('scenarios')
      .select('id')
      .where('origin', '=', 'builtin')
      .executeTakeFirstOrThrow();
    const response = await t.request({ method: 'GET', url: `/api/sim/${id}/stix`, cookie: admin.cookie });
    expect(response.headers['content-type']).toBe('application/stix+json;version=2.1');
    const history = await t.request({ method: 'GET', url: `/api/sim/${id}/versions`, cookie: admin.cookie });
    const current = history.json().versions.find((version: { number: number }) => version.number === 1);
    const report = response.json().objects.find((object: { type: string }) => object.type === 'report');
    expect(current.publishedAt).toEqual(expect.any(String));
    expect(report.published).toBe(new Date(current.publishedAt).toISOString());
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
