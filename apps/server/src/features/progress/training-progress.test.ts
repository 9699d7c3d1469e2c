import { navigatorLayerSchema, type Skills, type TrainingProgressPage } from '@tradecraft/shared';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, xlsxRows, type TestApp } from '../../../test/helper';
import type { User } from '../../db/schema';
import { CompiledQuery, sql } from 'kysely';
import { insertRun, insertScenario } from './progress.fixtures';
import { trainingProgressPageQuery } from './progress.repository';

describe('Training Progress and the skill map', () => {
  let t: TestApp;
  let admin: { user: User; cookie: string };
  let student: { user: User; cookie: string };
  let zoe: User;
  let adam: User;
  let mallory: User;
  const runs = {
    zoePass: '',
    zoeFail: '',
    adamEnded: '',
    adamUnknown: '',
    studentFull: '',
    studentProgress: '',
    mallory: '',
  };

  const get = (url: string, cookie = admin.cookie) => t.request({ method: 'GET', url, cookie });
  const page = async (query: string) => {
    const response = await get(`/api/progress/all?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as TrainingProgressPage;
  };
  const ids = (result: TrainingProgressPage) => result.items.map((item) => item.runId);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.userWithSession('admin');
    student = await t.userWithSession('student', {
      email: 'student.progress@example.com',
      first_name: 'Sam',
      last_name: 'Student',
    });
    zoe = await t.createUser({ email: 'zoe@example.com', first_name: 'Zoe', last_name: 'Zimmer' });
    adam = await t.createUser({ email: 'adam@example.com', first_name: 'Adam', last_name: 'Percent_50%' });
    mallory = await t.createUser({
      email: 'mallory@example.com',
      first_name: '=HYPERLINK("http://evil")',
      last_name: 'x',
    });
    const alpha = await insertScenario(t.db, {
      name: 'Alpha',
      steps: [
        { id: 'one', technique: 'T1566.001' },
        { id: 'two', technique: 'T1557' },
      ],
    });
    const bravo = await insertScenario(t.db, { name: 'Bravo' });

    // Scores chosen around the pass mark: 139/200 is exactly 69.5 % (rounds to 70: Pass), 347/500 is 69.4 % (Fail).
    runs.zoePass = (
      await insertRun(t.db, { user: zoe, scenario: alpha, score: 139, stepCount: 200, startedMinute: 1 })
    ).id;
    runs.zoeFail = (
      await insertRun(t.db, { user: zoe, scenario: bravo, score: 347, stepCount: 500, startedMinute: 2 })
    ).id;
    runs.adamEnded = (
      await insertRun(t.db, { user: adam, scenario: alpha, status: 'ended', score: 2, stepCount: 2, startedMinute: 3 })
    ).id;
    runs.adamUnknown = (
      await insertRun(t.db, { user: adam, scenario: bravo, score: 1, stepCount: 0, startedMinute: 4 })
    ).id;
    runs.studentFull = (
      await insertRun(t.db, {
        user: student.user,
        scenario: alpha,
        score: 2,
        stepCount: 2,
        startedMinute: 5,
        decisions: [
          { stepId: 'one', correct: true, technique: 'T1566.001' },
          { stepId: 'two', correct: true, technique: 'T1557' },
        ],
      })
    ).id;
    runs.studentProgress = (
      await insertRun(t.db, {
        user: student.user,
        scenario: alpha,
        status: 'in_progress',
        score: 0,
        stepCount: 2,
        startedMinute: 6,
        decisions: [{ stepId: 'one', correct: false, technique: 'T1566.001' }],
      })
    ).id;
    runs.mallory = (
      await insertRun(t.db, {
        user: mallory,
        scenario: bravo,
        scenarioName: '@SUM(1+1)',
        score: 0,
        stepCount: 2,
        startedMinute: 7,
        decisions: [{ stepId: 'one', correct: false, technique: 'T1557' }],
      })
    ).id;
  });
  afterAll(() => t.close());

  describe('GET /api/progress/all', () => {
    it('is for admins only', async () => {
      expect((await get('/api/progress/all', student.cookie)).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url: '/api/progress/all' })).statusCode).toBe(401);
    });

    it('lists every run newest first with user, training, score %, result and status', async () => {
      const result = await page('');
      expect(result.total).toBe(7);
      expect(ids(result)).toEqual([
        runs.mallory,
        runs.studentProgress,
        runs.studentFull,
        runs.adamUnknown,
        runs.adamEnded,
        runs.zoeFail,
        runs.zoePass,
      ]);
      const byId = Object.fromEntries(result.items.map((item) => [item.runId, item]));
      expect(byId[runs.zoePass]).toMatchObject({
        userEmail: 'zoe@example.com',
        userName: 'Zoe Zimmer',
        scenarioName: 'Alpha',
        scorePercent: 70,
        result: 'Pass',
        completed: true,
      });
      expect(byId[runs.zoeFail]).toMatchObject({ scorePercent: 69, result: 'Fail' });
      expect(byId[runs.adamEnded]).toMatchObject({ scorePercent: 100, result: '-', completed: false, status: 'ended' });
      expect(byId[runs.adamUnknown]).toMatchObject({ scorePercent: null, result: '-', completed: true });
    });

    it('pages in SQL with the total of all matching runs', async () => {
      const first = await page('pageSize=3&page=1');
      const third = await page('pageSize=3&page=3');
      expect(first).toMatchObject({ total: 7, page: 1, pageSize: 3 });
      expect(ids(first)).toHaveLength(3);
      expect(ids(third)).toEqual([runs.zoePass]);
      const all = [...ids(first), ...ids(await page('pageSize=3&page=2')), ...ids(third)];
      expect(new Set(all).size).toBe(7);
    });

    it('searches by email or name, ignoring case, with % and _ taken literally', async () => {
      expect(ids(await page('search=ZOE'))).toEqual([runs.zoeFail, runs.zoePass]);
      expect(ids(await page('search=sam%20stud'))).toEqual([runs.studentProgress, runs.studentFull]);
      expect(ids(await page('search=_50%25'))).toEqual([runs.adamUnknown, runs.adamEnded]);
      expect(ids(await page('search=%25'))).toEqual([runs.adamUnknown, runs.adamEnded]);
      expect((await page('search=nobody')).total).toBe(0);
    });

    it('sorts by score %: unknown first, then by percent', async () => {
      const ascending = ids(await page('sort=score&dir=asc&pageSize=100'));
      expect(ascending[0]).toBe(runs.adamUnknown);
      expect(ascending.indexOf(runs.zoeFail)).toBeLessThan(ascending.indexOf(runs.zoePass));
      expect(ascending.slice(-2).sort()).toEqual([runs.adamEnded, runs.studentFull].sort());
      expect(ids(await page('sort=score&dir=desc&pageSize=100')).at(-1)).toBe(runs.adamUnknown);
    });

    it('sorts by result: - then Fail then Pass, with 69.5 % a Pass and 69.4 % a Fail', async () => {
      const result = await page('sort=result&dir=asc&pageSize=100');
      expect(result.items.map((item) => item.result)).toEqual(['-', '-', '-', 'Fail', 'Fail', 'Pass', 'Pass']);
      expect(
        result.items
          .filter((item) => item.result === 'Pass')
          .map((item) => item.runId)
          .sort(),
      ).toEqual([runs.zoePass, runs.studentFull].sort());
      expect((await page('sort=result&dir=desc')).items[0]!.result).toBe('Pass');
    });

    it('sorts by status, user and training', async () => {
      const status = await page('sort=status&dir=asc&pageSize=100');
      expect(status.items.map((item) => item.completed)).toEqual([true, true, true, true, true, false, false]);
      const users = await page('sort=user&dir=asc&pageSize=100');
      expect(users.items.map((item) => item.userEmail)).toEqual([...users.items.map((item) => item.userEmail)].sort());
      expect(users.items[0]!.userEmail).toBe('adam@example.com');
      const training = await page('sort=training&dir=desc&pageSize=100');
      expect(training.items[0]!.scenarioName).toBe('Bravo');
      expect(training.items.at(-1)!.scenarioName).toBe('@SUM(1+1)');
    });

    it('walks an index for every sort key instead of sorting the table (so 100,000 runs page like 100)', async () => {
      const expected = {
        training: 'runs_training_idx',
        score: 'runs_score_key_idx',
        result: 'runs_result_key_idx',
        status: 'runs_status_key_idx',
      };
      for (const [sort, index] of Object.entries(expected)) {
        for (const dir of ['asc', 'desc'] as const) {
          const compiled = trainingProgressPageQuery(t.db, null, {
            sort: sort as keyof typeof expected,
            dir,
            page: 1,
            pageSize: 10,
          }).compile();
          // PostgreSQL prefers a plain sort on a table this small, so forbid that to see whether the index can serve the order.
          const plan = await t.db.connection().execute(async (connection) => {
            if (t.dialect === 'postgres') {
              await sql`set enable_sort = off`.execute(connection);
              await sql`set enable_seqscan = off`.execute(connection);
            }
            const explain = t.dialect === 'postgres' ? 'explain ' : 'explain query plan ';
            const result = await connection.executeQuery(
              CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
            );
            if (t.dialect === 'postgres') await sql`reset all`.execute(connection);
            return JSON.stringify(result.rows);
          });
          expect(plan, `${sort} ${dir}`).toContain(index);
          expect(plan, `${sort} ${dir}`).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key/);
        }
      }
    });

    it('refuses an unknown sort column', async () => {
      expect((await get('/api/progress/all?sort=password')).statusCode).toBe(400);
    });
  });

  describe('GET /api/progress/all.csv', () => {
    it('exports the same search as CSV, newest first, with formula cells neutralised, and audits it', async () => {
      const response = await get('/api/progress/all.csv?search=example.com');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/csv/);
      expect(response.headers['content-disposition']).toBe('attachment; filename="training_progress.csv"');
      const parsed = Papa.parse<Record<string, string>>(response.body.trim(), { header: true });
      expect(parsed.errors).toEqual([]);
      expect(parsed.meta.fields).toEqual([
        'User',
        'Name',
        'Training',
        'Score',
        'Steps',
        'Score (%)',
        'Right answers',
        'Missed steps',
        'Result',
        'Status',
        'Started',
        'Finished',
        'Run',
      ]);
      expect(parsed.data.map((row) => row.Run)).toEqual([
        runs.mallory,
        runs.studentProgress,
        runs.studentFull,
        runs.adamUnknown,
        runs.adamEnded,
        runs.zoeFail,
        runs.zoePass,
      ]);
      const byRun = Object.fromEntries(parsed.data.map((row) => [row.Run, row]));
      expect(byRun[runs.zoePass]).toMatchObject({
        User: 'zoe@example.com',
        Name: 'Zoe Zimmer',
        Training: 'Alpha',
        'Score (%)': '70',
        Result: 'Pass',
        Status: 'Completed',
      });
      expect(byRun[runs.adamUnknown]).toMatchObject({ 'Score (%)': '-', Result: '-', Status: 'Completed' });
      expect(byRun[runs.studentProgress]).toMatchObject({ Result: '-', Status: 'Incomplete', Finished: '' });
      expect(byRun[runs.mallory]).toMatchObject({ Name: `'=HYPERLINK("http://evil") x`, Training: "'@SUM(1+1)" });

      const audit = await t.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'export training progress')
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor: admin.user.email, screen: 'Training Progress' });
    });

    it('exports the same rows as training_progress.xlsx, neutralised alike, and audits it', async () => {
      const response = await get('/api/progress/all.xlsx?search=example.com');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(response.headers['content-disposition']).toBe('attachment; filename="training_progress.xlsx"');
      const csv = Papa.parse<string[]>((await get('/api/progress/all.csv?search=example.com')).body.trim()).data;
      expect(await xlsxRows(response)).toEqual(csv);
      expect(csv[0]![0]).toBe('User'); // the byte-order mark is not part of the first header
      const audit = await t.db
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', 'export training progress')
        .execute();
      expect(audit.map((entry) => entry.details)).toContain(
        'Downloaded training_progress.xlsx (user contains "example.com")',
      );
    });

    it('narrows the export to the search', async () => {
      const response = await get('/api/progress/all.csv?search=zoe');
      const parsed = Papa.parse<Record<string, string>>(response.body.trim(), { header: true });
      expect(parsed.data.map((row) => row.Run)).toEqual([runs.zoeFail, runs.zoePass]);
      expect((await get('/api/progress/all.csv', student.cookie)).statusCode).toBe(403);
    });
  });

  describe('GET /api/progress/skills and the Navigator layer', () => {
    const skillsOf = async (query: string, cookie = student.cookie) => {
      const response = await get(`/api/progress/skills${query}`, cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Skills;
    };

    it("counts the caller's own answers per technique, with tactics in matrix order", async () => {
      const skills = await skillsOf('');
      expect(skills.scope).toMatchObject({ kind: 'user', user: { id: student.user.id } });
      expect(
        skills.techniques.map(({ id, attempts, correct, sharePercent }) => ({ id, attempts, correct, sharePercent })),
      ).toEqual([
        { id: 'T1557', attempts: 1, correct: 1, sharePercent: 100 },
        { id: 'T1566.001', attempts: 2, correct: 1, sharePercent: 50 },
      ]);
      expect(skills.techniques[0]!.tactics).toEqual(['credential-access', 'collection']);
      expect(skills.techniques[1]).toMatchObject({
        subtechniqueOf: 'T1566',
        label: 'T1566.001 Phishing: Spearphishing Attachment',
      });
      expect(skills.totals).toEqual({ attempts: 3, correct: 2, techniques: 2 });
    });

    it("refuses a trainee anyone else's skills or everyone's (403)", async () => {
      expect((await get(`/api/progress/skills?userId=${mallory.id}`, student.cookie)).statusCode).toBe(403);
      expect((await get('/api/progress/skills?all=true', student.cookie)).statusCode).toBe(403);
      expect((await get('/api/progress/skills/layer?all=true', student.cookie)).statusCode).toBe(403);
      expect((await get(`/api/progress/skills?userId=${student.user.id}`, student.cookie)).statusCode).toBe(200);
    });

    it("lets an admin see one trainee's skills or everyone's together", async () => {
      const mallorySkills = await skillsOf(`?userId=${mallory.id}`, admin.cookie);
      expect(
        mallorySkills.techniques.map((technique) => [technique.id, technique.attempts, technique.correct]),
      ).toEqual([['T1557', 1, 0]]);
      const everyone = await skillsOf('?all=true', admin.cookie);
      expect(everyone.scope).toEqual({ kind: 'all', user: null });
      expect(everyone.techniques.map((technique) => [technique.id, technique.attempts, technique.correct])).toEqual([
        ['T1557', 2, 1],
        ['T1566.001', 2, 1],
      ]);
      expect((await get('/api/progress/skills?userId=nobody', admin.cookie)).statusCode).toBe(404);
    });

    it('downloads the skills as an ATT&CK Navigator layer (format 4.5)', async () => {
      const response = await get('/api/progress/skills/layer', student.cookie);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['content-disposition']).toBe('attachment; filename="tradecraft-attack-layer.json"');
      const layer: unknown = response.json();
      expect(navigatorLayerSchema.safeParse(layer).error?.issues ?? []).toEqual([]);
      expect(layer).toMatchObject({
        domain: 'enterprise-attack',
        versions: { attack: '18', navigator: '5.1.0', layer: '4.5' },
        gradient: { minValue: 0, maxValue: 100 },
      });
      const techniques = (layer as { techniques: { techniqueID: string; score?: number; comment: string }[] })
        .techniques;
      expect(techniques).toEqual([
        { techniqueID: 'T1557', score: 100, comment: '1 of 1 first answer right (100 %)', enabled: true },
        { techniqueID: 'T1566', comment: 'Scored on its sub-techniques', enabled: true, showSubtechniques: true },
        { techniqueID: 'T1566.001', score: 50, comment: '1 of 2 first answers right (50 %)', enabled: true },
      ]);
      expect((layer as { name: string }).name).toContain(student.user.email);
    });
  });
});

describe('Training Progress searched for common text', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('finds the runs of people holding text more than 200 people hold exactly as it finds a few people’s', async () => {
    const admin = await t.userWithSession('admin');
    const scenario = await insertScenario(t.db, { name: 'Crowded' });
    const crowd: User[] = [];
    for (let index = 0; index < 205; index += 1)
      crowd.push(
        await t.createUser({ email: `member-${index}@crowd.test`, first_name: 'Member', last_name: `${index}` }),
      );
    const named = await t.createUser({ email: 'lead@elsewhere.test', first_name: 'Crowd', last_name: 'Lead' });
    const other = await t.createUser({ email: 'other@elsewhere.test' });
    const expected: string[] = [];
    for (const [minute, user] of [crowd[3]!, crowd[150]!, named, crowd[204]!].entries())
      expected.unshift((await insertRun(t.db, { user, scenario, startedMinute: minute + 1 })).id);
    await insertRun(t.db, { user: other, scenario, startedMinute: 10 });

    const searched = async (query: string) => {
      const response = await t.request({ method: 'GET', url: `/api/progress/all?${query}`, cookie: admin.cookie });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as TrainingProgressPage;
    };
    // "crowd" is in 205 emails and one name: the list tests each run's person.
    const common = await searched('search=CROWD');
    expect(common.items.map((item) => item.runId)).toEqual(expected);
    expect(common).toMatchObject({ total: 4, totalIsLowerBound: false });
    // A few people: their runs only.
    const few = await searched('search=member-15');
    expect(few.items.map((item) => item.runId)).toEqual([expected[2]]);
    expect((await searched('search=nobody')).items).toEqual([]);
  });
});
