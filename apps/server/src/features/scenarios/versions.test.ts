import { randomBytes } from 'node:crypto';
import { MAX_SCENARIO_FILE_BYTES, shownOrder, type RunState } from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { SESSION_COOKIE } from '../../plugins/sessions.repository';

/** A small valid scenario as an author writes it (plain-string options, kind left out). */
function definition(id: string, overrides: { name?: string; firstTitle?: string; secondCorrect?: number } = {}) {
  return {
    id,
    name: overrides.name ?? 'Versioned phish',
    type: 'Phishing',
    difficulty: 2,
    description: 'A lure reaches the finance team.',
    steps: [
      {
        id: 'first',
        title: overrides.firstTitle ?? 'The first report',
        description: 'A clerk forwards a strange invoice.',
        options: ['Pull the message from every mailbox', 'Ignore it'],
        correct_option: 0,
      },
      {
        id: 'second',
        title: 'Who clicked?',
        description: 'Two people opened the attachment.',
        options: ['Isolate both hosts', 'Wait for more reports'],
        correct_option: overrides.secondCorrect ?? 0,
      },
    ],
  };
}

describe('scenario versions', () => {
  let t: TestApp;
  let admin: { cookie: string; name: string; email: string };
  let otherAdmin: { cookie: string; name: string };
  let student: { cookie: string };

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, cookie = admin.cookie) =>
    t.request({ method, url, ...(body === undefined ? {} : { body }), cookie });
  const auditActions = async () =>
    (await t.db.selectFrom('audit_log').select('action').orderBy('id').execute()).map((row) => row.action);
  const traineeList = async () =>
    ((await call('GET', '/api/sim/list', undefined, student.cookie)).json().scenarios as { id: string }[]).map(
      (scenario) => scenario.id,
    );
  const unique = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

  /** A new scenario published as version 1 through drafts. */
  async function publishedScenario(id = unique('pinned')) {
    expect((await call('POST', '/api/sim/drafts', { definition: definition(id) })).statusCode).toBe(201);
    expect((await call('POST', `/api/sim/${id}/publish`, { revision: 1 })).json()).toEqual({ number: 1 });
    return id;
  }

  /** Answers with the option at `fileIndex` in the file, sent as the index the run shows it at. */
  const answer = (run: RunState, stepId: string, fileIndex: number) =>
    call(
      'POST',
      `/api/runs/${run.id}/answer`,
      { stepId, optionIndex: shownOrder(run.id, stepId, 2).indexOf(fileIndex), timeMs: 1000 },
      student.cookie,
    );

  beforeAll(async () => {
    t = await createTestApp();
    const a = await t.userWithSession('admin', { first_name: 'Ada', last_name: 'Lead' });
    admin = { cookie: a.cookie, name: 'Ada Lead', email: a.user.email };
    const b = await t.userWithSession('admin', { first_name: 'Ben', last_name: 'Other' });
    otherAdmin = { cookie: b.cookie, name: 'Ben Other' };
    student = { cookie: (await t.userWithSession('student')).cookie };
  });
  afterAll(() => t.close());

  describe('a new scenario as a draft', () => {
    it('is created with its problems listed, and is seen by no trainee until published', async () => {
      const id = unique('draft-only');
      const { name: _name, ...unfinished } = definition(id);
      const created = await call('POST', '/api/sim/drafts', { definition: unfinished });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ id, number: 1, revision: 1 });
      expect(created.json().problems.map((problem: { path: string }) => problem.path)).toContain('name');

      expect(await traineeList()).not.toContain(id);
      expect((await call('GET', `/api/sim/${id}`, undefined, student.cookie)).statusCode).toBe(404);
      const start = await call('POST', '/api/runs', { scenarioId: id }, student.cookie);
      expect(start.statusCode).toBe(404);
      const authoring = (await call('GET', '/api/sim/authoring')).json().scenarios as { id: string }[];
      expect(authoring.find((scenario) => scenario.id === id)).toMatchObject({
        currentVersion: null,
        draft: { number: 1, revision: 1 },
      });
      expect((await call('POST', '/api/sim/drafts', { definition: definition(id) })).statusCode).toBe(409);
    });

    it('refuses an id the application reserves (400)', async () => {
      const reserved = await call('POST', '/api/sim/drafts', { definition: definition('delete-scenario') });
      expect(reserved.statusCode).toBe(400);
      expect(reserved.json().error).toBe('This id is reserved by the application; choose another id.');
    });

    it('derives the id from the name when the definition has none', async () => {
      const { id: _id, ...withoutId } = definition('ignored', { name: 'Named Without Id' });
      const created = await call('POST', '/api/sim/drafts', { definition: withoutId });
      expect(created.statusCode).toBe(201);
      expect(created.json().id).toBe('named-without-id');
      const draft = await call('GET', '/api/sim/named-without-id/draft');
      expect(draft.json().definition.id).toBe('named-without-id');
    });

    it('is not for trainees: every versions route answers 403', async () => {
      const id = await publishedScenario();
      const routes: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
        ['GET', '/api/sim/authoring'],
        ['GET', `/api/sim/${id}/versions`],
        ['GET', `/api/sim/${id}/versions/1`],
        ['GET', `/api/sim/${id}/versions/1/export`],
        ['GET', `/api/sim/${id}/draft`],
        ['PUT', `/api/sim/${id}/draft`, { revision: null, definition: definition(id) }],
        ['DELETE', `/api/sim/${id}/draft`, { revision: 1 }],
        ['POST', `/api/sim/${id}/publish`, { revision: 1 }],
        ['POST', `/api/sim/${id}/versions/1/restore`, { revision: null }],
        ['POST', '/api/sim/drafts', { definition: definition(unique('by-student')) }],
        ['POST', `/api/sim/${id}/duplicate`, {}],
      ];
      for (const [method, url, body] of routes) {
        expect({ url, status: (await call(method, url, body, student.cookie)).statusCode }).toEqual({
          url,
          status: 403,
        });
      }
      expect((await call('GET', `/api/sim/${id}/draft`)).statusCode).toBe(404);
    });
  });

  describe('saving a draft', () => {
    it('counts revisions and refuses a stale save with who saved it and when (409)', async () => {
      const id = await publishedScenario();
      const started = await call('PUT', `/api/sim/${id}/draft`, {
        revision: null,
        definition: definition(id, { firstTitle: 'Edited once' }),
      });
      expect(started.statusCode).toBe(200);
      expect(started.json()).toMatchObject({ number: 2, revision: 1, problems: [] });

      const second = await call('PUT', `/api/sim/${id}/draft`, {
        revision: 1,
        definition: definition(id, { firstTitle: 'Edited twice' }),
      });
      expect(second.json()).toMatchObject({ number: 2, revision: 2 });

      const stale = await call(
        'PUT',
        `/api/sim/${id}/draft`,
        { revision: 1, definition: definition(id, { firstTitle: 'Lost edit' }) },
        otherAdmin.cookie,
      );
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatch(
        /^This draft was saved by Ada Lead at \d{4}-\d\d-\d\d \d\d:\d\d UTC since you opened it\. Download your version, reload, and apply your changes again\.$/,
      );
      expect(stale.json().currentRevision).toBe(2);
      const draft = (await call('GET', `/api/sim/${id}/draft`)).json();
      expect(draft).toMatchObject({ number: 2, state: 'draft', revision: 2, problems: [] });
      expect(draft.definition.steps[0].title).toBe('Edited twice');

      const second_start = await call(
        'PUT',
        `/api/sim/${id}/draft`,
        { revision: null, definition: definition(id) },
        otherAdmin.cookie,
      );
      expect(second_start.statusCode).toBe(409);
      expect(second_start.json().error).toMatch(/^Ada Lead started a draft of this scenario at /);
    });

    it('saves an unfinished draft with its problems, refuses another id (400) and more than 1 MB (413)', async () => {
      const id = await publishedScenario();
      const broken = { ...definition(id), steps: [{ ...definition(id).steps[0], correct_option: 5 }] };
      const saved = await call('PUT', `/api/sim/${id}/draft`, { revision: null, definition: broken });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().problems).toEqual([expect.objectContaining({ path: 'steps[0].correct_option' })]);

      const other = await call('PUT', `/api/sim/${id}/draft`, { revision: 1, definition: definition('another-id') });
      expect(other.statusCode).toBe(400);
      expect(other.json().error).toBe("The definition's id must be the id of this scenario.");

      const huge = { ...definition(id), description: 'x'.repeat(MAX_SCENARIO_FILE_BYTES) };
      const tooLarge = await call('PUT', `/api/sim/${id}/draft`, { revision: 1, definition: huge });
      expect(tooLarge.statusCode).toBe(413);
      expect((await call('GET', `/api/sim/${id}/draft`)).json().revision).toBe(1);
    });
  });

  describe('publishing', () => {
    it('refuses a draft with problems and changes nothing (400)', async () => {
      const id = await publishedScenario();
      const broken = definition(id, { name: 'Broken edit' });
      broken.steps[1]!.correct_option = 7;
      await call('PUT', `/api/sim/${id}/draft`, { revision: null, definition: broken });
      const before = { history: (await call('GET', `/api/sim/${id}/versions`)).json(), audit: await auditActions() };

      const refused = await call('POST', `/api/sim/${id}/publish`, { revision: 1 });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe('This version cannot be published until its problems are fixed.');
      expect(refused.json().problems).toEqual([expect.stringMatching(/^steps\[1\]\.correct_option: /)]);
      expect((await call('GET', `/api/sim/${id}/versions`)).json()).toEqual(before.history);
      expect(await auditActions()).toEqual(before.audit);
      expect((await call('GET', `/api/sim/${id}`, undefined, student.cookie)).json().name).toBe('Versioned phish');
    });

    it('makes the draft current, supersedes the previous version, and the lists follow it', async () => {
      const id = await publishedScenario();
      await call('PUT', `/api/sim/${id}/draft`, {
        revision: null,
        definition: definition(id, { name: 'Renamed phish', firstTitle: 'A new first step title' }),
      });
      const stale = await call('POST', `/api/sim/${id}/publish`, { revision: 2 });
      expect(stale.statusCode).toBe(409);
      const published = await call('POST', `/api/sim/${id}/publish`, { revision: 1 });
      expect(published.json()).toEqual({ number: 2 });

      const history = (await call('GET', `/api/sim/${id}/versions`)).json();
      expect(history).toMatchObject({
        scenarioId: id,
        name: 'Renamed phish',
        archived: false,
        currentVersion: 2,
        draft: null,
      });
      expect(
        history.versions.map((version: { number: number; state: string }) => [version.number, version.state]),
      ).toEqual([
        [2, 'published'],
        [1, 'superseded'],
      ]);
      expect(history.versions[0]).toMatchObject({
        summary: '1 step changed, name changed',
        createdBy: { name: 'Ada Lead' },
        publishedBy: { name: 'Ada Lead' },
      });
      expect((await call('GET', `/api/sim/${id}`, undefined, student.cookie)).json().name).toBe('Renamed phish');
      expect(await traineeList()).toContain(id);
      expect((await call('GET', `/api/sim/${id}/draft`)).json().error).toBe('This scenario has no draft.');
    });
  });

  describe('a run pins its version', () => {
    it('starts on v1 and finishes on v1 after v2 is published: graded by v1, reported with v1 steps', async () => {
      const id = await publishedScenario();
      const started = await call('POST', '/api/runs', { scenarioId: id }, student.cookie);
      expect(started.statusCode).toBe(201);
      const run = started.json().run as RunState;
      expect((await answer(run, 'first', 0)).json().correct).toBe(true);
      expect((await call('POST', `/api/runs/${run.id}/next`, {}, student.cookie)).statusCode).toBe(200);

      // v2: the second step's right answer is now the other option, the first step renamed, one step added.
      const v2 = definition(id, { secondCorrect: 1, firstTitle: 'Renamed in v2' });
      v2.steps.push({
        id: 'third',
        title: 'Tell the bank',
        description: 'Money may have left.',
        options: ['Call the bank fraud line', 'Do nothing'],
        correct_option: 0,
      });
      await call('PUT', `/api/sim/${id}/draft`, { revision: null, definition: v2 });
      expect((await call('POST', `/api/sim/${id}/publish`, { revision: 1 })).json()).toEqual({ number: 2 });

      const answered = await answer(run, 'second', 0);
      expect(answered.statusCode).toBe(200);
      expect(answered.json().correct).toBe(true);
      const finished = await call('POST', `/api/runs/${run.id}/next`, {}, student.cookie);
      expect(finished.json().run).toMatchObject({ status: 'completed', stepCount: 2, scorePercent: 100 });

      const report = await call('GET', `/api/progress/runs/${run.id}/report`, undefined, student.cookie);
      expect(report.statusCode).toBe(200);
      expect(report.json().decisions.map((decision: { stepTitle: string }) => decision.stepTitle)).toEqual([
        'The first report',
        'Who clicked?',
      ]);
      expect(report.json().scenario.note).toBeNull();

      const replay = await call('POST', '/api/runs', { scenarioId: id, startOver: true }, student.cookie);
      expect(replay.json().run).toMatchObject({ stepCount: 3, currentStep: { title: 'Renamed in v2' } });
    });

    it('keeps a run in progress playable with no "scenario changed" conflict when steps are removed', async () => {
      const id = await publishedScenario();
      const run = (await call('POST', '/api/runs', { scenarioId: id }, student.cookie)).json().run as RunState;
      const v2 = definition(id);
      v2.steps = [{ ...v2.steps[1]!, id: 'only' }];
      await call('PUT', `/api/sim/${id}/draft`, { revision: null, definition: v2 });
      await call('POST', `/api/sim/${id}/publish`, { revision: 1 });
      expect((await answer(run, 'first', 0)).statusCode).toBe(200);
      const resumed = await call('POST', `/api/runs/${run.id}/resume`, {}, student.cookie);
      expect(resumed.statusCode).toBe(200);
      expect(resumed.json().run).toMatchObject({ currentStep: { id: 'first' }, answer: { correct: true } });
    });
  });

  describe('history', () => {
    it('restores an old version into the draft, exports a version as YAML', async () => {
      const id = await publishedScenario();
      await call('PUT', `/api/sim/${id}/draft`, { revision: null, definition: definition(id, { name: 'Second' }) });
      await call('POST', `/api/sim/${id}/publish`, { revision: 1 });

      const restored = await call('POST', `/api/sim/${id}/versions/1/restore`, { revision: null });
      expect(restored.statusCode).toBe(200);
      expect(restored.json()).toMatchObject({ number: 3, state: 'draft', revision: 1, problems: [] });
      expect(restored.json().definition.name).toBe('Versioned phish');
      const again = await call('POST', `/api/sim/${id}/versions/2/restore`, { revision: 1 });
      expect(again.json()).toMatchObject({ number: 3, revision: 2 });
      expect(again.json().definition.name).toBe('Second');
      expect((await call('POST', `/api/sim/${id}/versions/1/restore`, { revision: 1 })).statusCode).toBe(409);
      expect((await call('POST', `/api/sim/${id}/versions/9/restore`, { revision: 2 })).statusCode).toBe(404);

      const exported = await call('GET', `/api/sim/${id}/versions/1/export`);
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-type']).toMatch(/^text\/yaml/);
      expect(exported.headers['content-disposition']).toBe(`attachment; filename="${id}-v1.yaml"`);
      const file = parse(exported.body) as { id: string; name: string; steps: { title: string }[] };
      expect(file).toMatchObject({ id, name: 'Versioned phish' });
      expect(file.steps.map((step) => step.title)).toEqual(['The first report', 'Who clicked?']);
      expect((await call('GET', `/api/sim/${id}/versions/7`)).statusCode).toBe(404);
    });

    it('discards a draft (stale revision refused) and a never-published scenario with it', async () => {
      const id = await publishedScenario();
      await call('PUT', `/api/sim/${id}/draft`, { revision: null, definition: definition(id, { name: 'Gone' }) });
      expect((await call('DELETE', `/api/sim/${id}/draft`, { revision: 4 })).statusCode).toBe(409);
      expect((await call('DELETE', `/api/sim/${id}/draft`, { revision: 1 })).statusCode).toBe(200);
      expect((await call('GET', `/api/sim/${id}/draft`)).statusCode).toBe(404);
      expect((await call('GET', `/api/sim/${id}/versions`)).json().versions).toHaveLength(1);

      const never = unique('never');
      await call('POST', '/api/sim/drafts', { definition: definition(never) });
      expect((await call('DELETE', `/api/sim/${never}/draft`, { revision: 1 })).statusCode).toBe(200);
      expect((await call('GET', `/api/sim/${never}/versions`)).statusCode).toBe(404);
    });

    it('duplicates the current version into a new draft-only scenario', async () => {
      const id = await publishedScenario();
      const copy = await call('POST', `/api/sim/${id}/duplicate`, {});
      expect(copy.statusCode).toBe(201);
      const copyId = copy.json().id as string;
      expect(copyId).toBe('versioned-phish-copy');
      const draft = (await call('GET', `/api/sim/${copyId}/draft`)).json();
      expect(draft.definition).toMatchObject({ id: copyId, name: 'Versioned phish (copy)' });
      expect(draft.problems).toEqual([]);
      expect(await traineeList()).not.toContain(copyId);
      expect((await call('POST', `/api/sim/${id}/duplicate`, {})).statusCode).toBe(409);
      const named = await call('POST', `/api/sim/${id}/duplicate`, { id: unique('named-copy'), name: 'Named' });
      expect(named.statusCode).toBe(201);
    });
  });

  describe('archive', () => {
    it('keeps runs and reports readable and the history listed, and stops editing (409)', async () => {
      const id = await publishedScenario();
      const run = (await call('POST', '/api/runs', { scenarioId: id }, student.cookie)).json().run as RunState;
      await answer(run, 'first', 0);
      expect((await call('DELETE', `/api/sim/delete-scenario/${id}`)).statusCode).toBe(200);

      expect(await traineeList()).not.toContain(id);
      const read = await call('GET', `/api/runs/${run.id}`, undefined, student.cookie);
      expect(read.json().run).toMatchObject({ scenarioDeleted: true });
      expect(read.json().run.timeline[0].stepTitle).toBe('The first report');
      expect((await call('GET', `/api/progress/runs/${run.id}/report`, undefined, student.cookie)).statusCode).toBe(
        200,
      );
      expect((await call('GET', `/api/sim/${id}/versions`)).json()).toMatchObject({
        archived: true,
        currentVersion: 1,
      });
      const edit = await call('PUT', `/api/sim/${id}/draft`, { revision: null, definition: definition(id) });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().error).toBe('This scenario is archived; it can no longer be edited.');
    });
  });

  describe('upload of an existing id', () => {
    const upload = (yaml: string) => {
      const boundary = `----tradecraft${randomBytes(8).toString('hex')}`;
      return t.app.inject({
        method: 'POST',
        url: '/api/sim/upload-scenario',
        headers: {
          origin: ORIGIN,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          cookie: `${SESSION_COOKIE}=${admin.cookie}`,
        },
        payload:
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.json"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n${yaml}\r\n--${boundary}--\r\n`,
      });
    };

    it('makes the file the draft (201) and leaves the current version playing', async () => {
      const id = await publishedScenario();
      const uploaded = await upload(JSON.stringify(definition(id, { name: 'Uploaded edit' })));
      expect(uploaded.statusCode).toBe(201);
      expect(uploaded.json()).toMatchObject({ draft: true, number: 2, scenario: { id, name: 'Uploaded edit' } });
      expect((await call('GET', `/api/sim/${id}/draft`)).json().definition.name).toBe('Uploaded edit');
      expect((await call('GET', `/api/sim/${id}`, undefined, student.cookie)).json().name).toBe('Versioned phish');

      const replaced = await upload(JSON.stringify(definition(id, { name: 'Uploaded again' })));
      expect(replaced.json()).toMatchObject({ draft: true, number: 2 });
      expect((await call('GET', `/api/sim/${id}/draft`)).json()).toMatchObject({ revision: 2 });
    });
  });

  it('audits every save, publish, restore, discard, duplicate and new draft', async () => {
    const id = unique('audited');
    await call('POST', '/api/sim/drafts', { definition: definition(id) });
    await call('PUT', `/api/sim/${id}/draft`, { revision: 1, definition: definition(id, { name: 'Audited' }) });
    await call('POST', `/api/sim/${id}/publish`, { revision: 2 });
    await call('POST', `/api/sim/${id}/versions/1/restore`, { revision: null });
    await call('DELETE', `/api/sim/${id}/draft`, { revision: 1 });
    await call('POST', `/api/sim/${id}/duplicate`, { id: unique('audited-copy') });
    const rows = await t.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'details', 'screen'])
      .where('details', 'like', `%(${id})%`)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => row.action)).toEqual([
      'create scenario draft',
      'save scenario draft',
      'publish scenario version',
      'restore scenario version',
      'discard scenario draft',
      'duplicate scenario',
    ]);
    expect(rows.every((row) => row.actor === admin.email && row.screen === 'Scenario Editor')).toBe(true);
    expect(rows[2]!.details).toBe(`Published version 1 of "Audited" (${id}): First version`);
  });
});
