import { shownOrder, type RunState } from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { FIXTURE_SCENARIO, insertScenario } from './runs.fixtures';

// One score for one run: every screen that shows a run's score reads it from run-figures.ts, so the end screen,
// the dashboard, the report, Training Progress and its CSV all say the same number.

const optionCount = (stepId: string) => {
  const step = FIXTURE_SCENARIO.steps.find((candidate) => candidate.id === stepId);
  return step && 'options' in step ? step.options.length : 0;
};

describe('one score for one run', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('shows the same score, percent and result on the end screen, dashboard, report, Training Progress and CSV', async () => {
    const trainee = await t.userWithSession('student', { first_name: 'Una', last_name: 'Scorewise' });
    const admin = await t.userWithSession('admin');
    const scenarioId = (await insertScenario(t.db)).id;
    const post = (url: string, body: object = {}) => t.request({ method: 'POST', url, body, cookie: trainee.cookie });

    // An ended run: the right first answer, then End Simulation (the percent divides by the best path).
    const started = (await post('/api/runs', { scenarioId })).json().run as RunState;
    const optionIndex = shownOrder(started.id, 'triage', optionCount('triage')).indexOf(1);
    expect(
      (await post(`/api/runs/${started.id}/answer`, { stepId: 'triage', optionIndex, timeMs: 800 })).statusCode,
    ).toBe(200);
    expect((await post(`/api/runs/${started.id}/next`)).statusCode).toBe(200);
    const ended = (await post(`/api/runs/${started.id}/end`)).json().run as RunState;
    expect(ended.status).toBe('ended');
    expect(ended.scorePercent).toBeGreaterThan(0);
    expect(ended.scorePercent).toBeLessThan(100);

    const dashboard = await t.request({
      method: 'GET',
      url: `/api/progress/user/${trainee.user.email}`,
      cookie: trainee.cookie,
    });
    const dashboardRun = (
      dashboard.json().runs as { id: string; scorePercent: number; result: string; score: number }[]
    ).find((run) => run.id === ended.id)!;
    const report = (
      await t.request({ method: 'GET', url: `/api/progress/runs/${ended.id}/report`, cookie: trainee.cookie })
    ).json().run as { scorePercent: number; score: number; result: string; percentBase: number };
    const progress = (
      await t.request({
        method: 'GET',
        url: `/api/progress/all?search=${encodeURIComponent(trainee.user.email)}`,
        cookie: admin.cookie,
      })
    ).json().items as { runId: string; scorePercent: number; result: string; score: number }[];
    const progressRow = progress.find((row) => row.runId === ended.id)!;
    const csv = (
      await t.request({
        method: 'GET',
        url: `/api/progress/all.csv?search=${encodeURIComponent(trainee.user.email)}`,
        cookie: admin.cookie,
      })
    ).body;
    const csvRow = csv.split(/\r?\n/).find((line) => line.includes(ended.id))!;

    for (const figures of [dashboardRun, report, progressRow]) {
      expect(figures).toMatchObject({ scorePercent: ended.scorePercent, score: ended.score, result: ended.result });
    }
    expect(report.percentBase).toBe(ended.percentBase);
    // The CSV's Score (%) column, beside the same score.
    expect(csvRow.split(',')).toContain(String(ended.scorePercent));
  });
});
