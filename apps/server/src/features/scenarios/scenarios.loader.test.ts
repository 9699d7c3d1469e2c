import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkScenarioText } from '@tradecraft/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { BUILTIN_SCENARIOS_DIR, loadBuiltinScenarios, type ScenarioLoadLogger } from './scenarios.loader';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

describe('loading the built-in scenario library', () => {
  let t: TestApp;
  let dir: string;
  let warnings: { details: object; message: string }[];
  const log: ScenarioLoadLogger = { warn: (details, message) => warnings.push({ details, message }) };
  const load = () => loadBuiltinScenarios(t.db, dir, log);
  const row = (id: string) => t.db.selectFrom('scenarios').selectAll().where('id', '=', id).executeTakeFirst();

  beforeEach(async () => {
    t = await createTestApp();
    warnings = [];
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tradecraft-library-'));
    for (const file of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, file), path.join(dir, file));
  });
  afterEach(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('inserts every file as a built-in scenario holding its checked definition, step count and file hash', async () => {
    const result = await load();
    expect(result.inserted.sort()).toEqual(['fixture-invoice-phish', 'fixture-usb-insider']);
    expect(result.loaded).toBe(2);

    const text = fs.readFileSync(path.join(dir, 'invoice-phish.yaml'));
    const checked = checkScenarioText(text.toString('utf8'));
    if (!checked.ok) throw new Error('the fixture must pass the checker');
    const stored = await row('fixture-invoice-phish');
    expect(stored).toMatchObject({
      name: 'Fixture invoice phish',
      type: 'Phishing',
      difficulty: 2,
      step_count: 4,
      origin: 'builtin',
      source_file_id: null,
      deleted_at: null,
      content_hash: createHash('sha256').update(text).digest('hex'),
    });
    expect(JSON.parse(stored!.definition)).toEqual(checked.scenario);
  });

  it('writes nothing for files that did not change', async () => {
    await load();
    const before = await row('fixture-usb-insider');
    const result = await load();
    expect(result.unchanged.sort()).toEqual(['fixture-invoice-phish', 'fixture-usb-insider']);
    expect(result.inserted).toEqual([]);
    expect(result.updated).toEqual([]);
    expect(await row('fixture-usb-insider')).toEqual(before);
  });

  it('updates a scenario whose file changed, by id', async () => {
    await load();
    const file = path.join(dir, 'invoice-phish.yaml');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('name: Fixture invoice phish', 'name: Renamed invoice phish'),
    );
    const result = await load();
    expect(result.updated).toEqual(['fixture-invoice-phish']);
    const stored = await row('fixture-invoice-phish');
    expect(stored?.name).toBe('Renamed invoice phish');
    expect(JSON.parse(stored!.definition).name).toBe('Renamed invoice phish');
  });

  it('publishes a changed file as a new version; a run started on the old one keeps playing it', async () => {
    await load();
    const student = await t.userWithSession('student');
    const started = await t.request({
      method: 'POST',
      url: '/api/runs',
      body: { scenarioId: 'fixture-invoice-phish' },
      cookie: student.cookie,
    });
    const runId: string = started.json().run.id;
    const firstTitle: string = started.json().run.currentStep.title;
    const file = path.join(dir, 'invoice-phish.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(`title: ${firstTitle}`, 'title: Retitled in v2'));
    expect((await load()).updated).toEqual(['fixture-invoice-phish']);

    const versions = await t.db
      .selectFrom('scenario_versions')
      .select(['number', 'state', 'published_by'])
      .where('scenario_id', '=', 'fixture-invoice-phish')
      .orderBy('number')
      .execute();
    expect(versions).toEqual([
      { number: 1, state: 'superseded', published_by: null },
      { number: 2, state: 'published', published_by: null },
    ]);
    const run = await t.request({ method: 'GET', url: `/api/runs/${runId}`, cookie: student.cookie });
    expect(run.json().run.currentStep.title).toBe(firstTitle);
    expect((await load()).unchanged).toContain('fixture-invoice-phish');
  });

  it('publishes a file put back as it was two versions ago, since it differs from the last one loaded', async () => {
    await load();
    const file = path.join(dir, 'invoice-phish.yaml');
    const original = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, original.replace('name: Fixture invoice phish', 'name: Renamed invoice phish'));
    expect((await load()).updated).toEqual(['fixture-invoice-phish']);
    fs.writeFileSync(file, original);
    expect((await load()).updated).toEqual(['fixture-invoice-phish']);
    expect((await row('fixture-invoice-phish'))?.name).toBe('Fixture invoice phish');
    expect((await load()).unchanged).toContain('fixture-invoice-phish');
  });

  it('still skips a copy of a loaded file under another name, unchanged as both are', async () => {
    await load();
    fs.copyFileSync(path.join(dir, 'usb-insider.json'), path.join(dir, 'zz-copy.json'));
    const result = await load();
    expect(result.unchanged.sort()).toEqual(['fixture-invoice-phish', 'fixture-usb-insider']);
    expect(result.skipped).toEqual([
      { file: 'zz-copy.json', problems: ['id: "fixture-usb-insider" is already used by usb-insider.json'] },
    ]);
  });

  it('keeps a scenario an admin deleted deleted, even when its file changes', async () => {
    await load();
    const admin = await t.userWithSession('admin');
    const deleted = await t.request({
      method: 'DELETE',
      url: '/api/sim/delete-scenario/fixture-usb-insider',
      cookie: admin.cookie,
    });
    expect(deleted.statusCode).toBe(200);
    const file = path.join(dir, 'usb-insider.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"difficulty": 3', '"difficulty": 4'));

    const result = await load();
    expect(result.keptDeleted).toEqual(['fixture-usb-insider']);
    expect((await row('fixture-usb-insider'))?.deleted_at).not.toBeNull();
    const list = await t.request({ method: 'GET', url: '/api/sim/list', cookie: admin.cookie });
    expect(list.json().scenarios.map((s: { id: string }) => s.id)).toEqual(['fixture-invoice-phish']);
  });

  it('logs a broken file with its problems, skips it and loads the rest', async () => {
    fs.writeFileSync(
      path.join(dir, 'broken.yaml'),
      'id: broken-one\nname: Broken\ntype: Phishing\ndifficulty: 9\ndescription: x\nsteps:\n  - id: a\n    title: A\n    description: A\n    options: [One, Two]\n    correct_option: 5\n',
    );
    fs.writeFileSync(
      path.join(dir, 'no-id.yaml'),
      fs.readFileSync(path.join(dir, 'invoice-phish.yaml'), 'utf8').replace(/^id: .*$/m, ''),
    );

    const result = await load();
    expect(result.loaded).toBe(2);
    expect(result.skipped).toEqual([
      // Every layer at once: the bad difficulty and the step's out-of-range correct option.
      {
        file: 'broken.yaml',
        problems: [
          'difficulty: must be at most 5, found the number 9',
          'steps[0].correct_option: 5 is out of range (2 options)',
        ],
      },
      { file: 'no-id.yaml', problems: ['id: is required in a built-in scenario'] },
    ]);
    expect(warnings.map((warning) => (warning.details as { file: string }).file)).toEqual([
      path.join(dir, 'broken.yaml'),
      path.join(dir, 'no-id.yaml'),
    ]);
    expect(await row('broken-one')).toBeUndefined();
  });

  it('skips a second file with an id already used by another file', async () => {
    fs.copyFileSync(path.join(dir, 'usb-insider.json'), path.join(dir, 'zz-copy.json'));
    const result = await load();
    expect(result.skipped).toEqual([
      { file: 'zz-copy.json', problems: ['id: "fixture-usb-insider" is already used by usb-insider.json'] },
    ]);
  });

  it('never overwrites an uploaded scenario that holds the same id', async () => {
    const now = new Date().toISOString();
    await t.db
      .insertInto('scenarios')
      .values({
        id: 'fixture-usb-insider',
        name: 'Uploaded first',
        type: 'Phishing',
        difficulty: 1,
        description: 'An upload',
        definition: '{}',
        step_count: 1,
        origin: 'upload',
        content_hash: 'x',
        source_file_id: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
    const result = await load();
    expect(result.skipped.map((skipped) => skipped.file)).toEqual(['usb-insider.json']);
    expect((await row('fixture-usb-insider'))?.name).toBe('Uploaded first');
  });

  it('does not stop start-up when the folder is missing', async () => {
    const result = await loadBuiltinScenarios(t.db, path.join(dir, 'missing'), log);
    expect(result.loaded).toBe(0);
    expect(warnings).toHaveLength(1);
  });

  it('loads every file of the real library in content/scenarios', async () => {
    const files = fs.readdirSync(BUILTIN_SCENARIOS_DIR).filter((file) => /\.(ya?ml|json)$/.test(file));
    expect(files.length).toBeGreaterThan(0);
    const result = await loadBuiltinScenarios(t.db, BUILTIN_SCENARIOS_DIR, log);
    expect(result.skipped).toEqual([]);
    expect(result.loaded).toBe(files.length);
  });
});
