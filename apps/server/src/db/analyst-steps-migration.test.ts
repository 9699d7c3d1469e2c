import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { migrations } from './migrations';

const ANALYST_STEPS = '2026_11_23_0401_analyst_steps';
/** The migrations after it that touch what it made (the item analysis index on run_decisions). */
const LATER = ['2026_11_25_0301_programmes'];

// Migration 2026_11_23_0401 (analyst steps): runs recorded before keep their numbers. The test steps the
// database back before the migration, records runs the old way, and migrates again.
describe('the analyst steps migration', () => {
  let t: TestApp;
  let student: { id: string; email: string; cookie: string };
  const runIds = { passed: randomUUID(), edge: randomUUID(), ended: randomUUID() };

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.userWithSession('student');
    student = { id: signedIn.user.id, email: signedIn.user.email, cookie: signedIn.cookie };

    // Step back as a migrator would: the later migrations that build on its columns first.
    for (const name of [...LATER].reverse()) await migrations[name]!.down!(t.db as never);
    await migrations[ANALYST_STEPS]!.down!(t.db as never);
    const now = new Date().toISOString();
    await sql`insert into scenarios (id, name, type, difficulty, description, definition, step_count, origin, content_hash, created_at, updated_at)
      values ('old-scenario', 'Old', 'Phishing', 2, 'x', '{"name":"Old","type":"Phishing","difficulty":2,"description":"x","steps":[]}', 4, 'upload', 'h', ${now}, ${now})`.execute(
      t.db,
    );
    const oldRun = (id: string, score: number, steps: number, status: string) =>
      sql`insert into runs (id, user_id, scenario_id, scenario_name, step_count, current_step_id, current_answered, score, technique_counts, status, started_at, finished_at, updated_at)
        values (${id}, ${student.id}, 'old-scenario', 'Old', ${steps}, 'a', 0, ${score}, '{"T1566":1}', ${status}, ${now}, ${now}, ${now})`.execute(
        t.db,
      );
    await oldRun(runIds.passed, 3, 4, 'completed');
    await oldRun(runIds.edge, 139, 200, 'completed');
    await oldRun(runIds.ended, 1, 4, 'ended');
    for (const [seq, correct] of [
      [1, 1],
      [2, 0],
      [3, 1],
      [4, 1],
    ] as const) {
      await sql`insert into run_decisions (run_id, seq, step_id, option_index, correct, decision, feedback, technique, time_ms, at)
        values (${runIds.passed}, ${seq}, ${`s${seq}`}, 0, ${correct}, 'x', 'y', 'T1566', 1000, ${now})`.execute(t.db);
    }
    await migrations[ANALYST_STEPS]!.up(t.db as never);
    for (const name of LATER) await migrations[name]!.up(t.db as never);
  });
  afterAll(() => t.close());

  it('keeps every old run percent and result as they were shown (score over the step count)', async () => {
    const progress = (
      await t.request({
        method: 'GET',
        url: `/api/progress/user/${encodeURIComponent(student.email)}`,
        cookie: student.cookie,
      })
    ).json();
    const byId = new Map(progress.runs.map((run: { id: string }) => [run.id, run]));
    expect(byId.get(runIds.passed)).toMatchObject({
      score: 3,
      scoreThousandths: 3000,
      percentBase: 4,
      scorePercent: 75,
      result: 'Pass',
    });
    // 139 of 200 is 69.5 %, shown as 70 and passed before; still so.
    expect(byId.get(runIds.edge)).toMatchObject({ scoreThousandths: 139_000, scorePercent: 70, result: 'Pass' });
    expect(byId.get(runIds.ended)).toMatchObject({ scorePercent: 25, result: '-' });
  });

  it('turns each old decision into a credit of 1 (correct) or 0, a first submission of a choice step', async () => {
    const rows = await t.db
      .selectFrom('run_decisions')
      .selectAll()
      .where('run_id', '=', runIds.passed)
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => [row.credit_thousandths, row.first_submission, row.kind, row.skill, row.result])).toEqual([
      [1000, 1, 'choice', 'response', null],
      [0, 1, 'choice', 'response', null],
      [1000, 1, 'choice', 'response', null],
      [1000, 1, 'choice', 'response', null],
    ]);
    const report = (
      await t.request({ method: 'GET', url: `/api/progress/runs/${runIds.passed}/report`, cookie: student.cookie })
    ).json();
    expect(report.run).toMatchObject({ scorePercent: 75, result: 'Pass', correctCount: 3, incorrectCount: 1 });
    expect(report.skills).toEqual([{ skill: 'response', label: 'Response', attempts: 4, credit: 3, percent: 75 }]);
  });
});
