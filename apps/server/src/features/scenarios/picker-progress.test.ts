import { randomUUID } from 'node:crypto';
import { shownOrder, TUTORIAL_SCENARIO_ID, type ScenarioListItem } from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { FIXTURE_SCENARIO, insertScenario } from '../runs/runs.fixtures';

// The picker's list says where the caller stands with each scenario, from their own runs only.
describe('GET /api/sim/list for the picker', () => {
  let t: TestApp;
  let trainee: { id: string; cookie: string; email: string };
  let other: { id: string; cookie: string };
  let scenarioId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.userWithSession('student');
    trainee = { id: signedIn.user.id, cookie: signedIn.cookie, email: signedIn.user.email };
    const second = await t.userWithSession('student');
    other = { id: second.user.id, cookie: second.cookie };
    scenarioId = (await insertScenario(t.db)).id;
    await insertScenario(t.db, { id: TUTORIAL_SCENARIO_ID });
  });
  afterAll(() => t.close());

  async function list(cookie: string): Promise<Map<string, ScenarioListItem>> {
    const response = await t.request({ method: 'GET', url: '/api/sim/list', cookie });
    expect(response.statusCode).toBe(200);
    return new Map((response.json().scenarios as ScenarioListItem[]).map((item) => [item.id, item]));
  }

  /** A finished run stored as the run engine leaves it. */
  async function completedRun(userId: string, scoreThousandths: number, percentBase: number): Promise<string> {
    const id = randomUUID();
    const now = new Date().toISOString();
    await t.db
      .insertInto('runs')
      .values({
        id,
        user_id: userId,
        scenario_id: scenarioId,
        scenario_name: FIXTURE_SCENARIO.name,
        step_count: 4,
        current_step_id: 'wrap',
        current_answered: 1,
        last_option_index: null,
        score_thousandths: scoreThousandths,
        percent_base: percentBase,
        played_steps: percentBase,
        best_path_steps: percentBase,
        pending_reviews: 0,
        hint_opened: 0,
        visit_submitted: 1,
        last_credit_thousandths: null,
        status: 'completed',
        started_at: now,
        finished_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  it('shows a trainee with no runs every scenario not started, the tutorial marked to start there', async () => {
    const items = await list(trainee.cookie);
    expect(items.get(scenarioId)).toMatchObject({
      progress: { inProgress: null, best: null, completedRuns: 0 },
      startHere: false,
      techniques: expect.arrayContaining(['T1566.001']),
    });
    expect(items.get(TUTORIAL_SCENARIO_ID)).toMatchObject({ startHere: true });
    expect(items.get(scenarioId)!.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('recommends the tutorial first on the dashboard of a trainee with no runs', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/progress/user/${encodeURIComponent(trainee.email)}`,
      cookie: trainee.cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().recommendations[0]).toMatchObject({
      id: TUTORIAL_SCENARIO_ID,
      reason: expect.stringMatching(/^Start here/),
    });
  });

  it('says at which step a run in progress is, counting the steps answered', async () => {
    const started = await t.request({ method: 'POST', url: '/api/runs', body: { scenarioId }, cookie: trainee.cookie });
    const runId: string = started.json().run.id;
    expect((await list(trainee.cookie)).get(scenarioId)!.progress.inProgress).toEqual({ runId, step: 1 });

    const correct = shownOrder(runId, 'triage', 3).indexOf(1);
    await t.request({
      method: 'POST',
      url: `/api/runs/${runId}/answer`,
      body: { stepId: 'triage', optionIndex: correct, timeMs: 1000 },
      cookie: trainee.cookie,
    });
    // Answered but not moved on: still the first step.
    expect((await list(trainee.cookie)).get(scenarioId)!.progress.inProgress).toEqual({ runId, step: 1 });
    await t.request({ method: 'POST', url: `/api/runs/${runId}/next`, body: {}, cookie: trainee.cookie });
    const items = await list(trainee.cookie);
    expect(items.get(scenarioId)!.progress.inProgress).toEqual({ runId, step: 2 });
    expect(items.get(TUTORIAL_SCENARIO_ID)!.startHere).toBe(false);
    const dashboard = await t.request({
      method: 'GET',
      url: `/api/progress/user/${encodeURIComponent(trainee.email)}`,
      cookie: trainee.cookie,
    });
    expect(dashboard.json().recommendations[0].reason).not.toMatch(/^Start here/);
  });

  it('offers an ended run to resume until a later run of the scenario starts', async () => {
    const runId = (await list(trainee.cookie)).get(scenarioId)!.progress.inProgress!.runId;
    const ended = await t.request({ method: 'POST', url: `/api/runs/${runId}/end`, body: {}, cookie: trainee.cookie });
    expect(ended.statusCode).toBe(200);
    // End Simulation keeps the run resumable: the card still says where it stopped.
    expect((await list(trainee.cookie)).get(scenarioId)!.progress.inProgress).toEqual({ runId, step: 2 });
    // A start continues that very run.
    const started = await t.request({ method: 'POST', url: '/api/runs', body: { scenarioId }, cookie: trainee.cookie });
    expect(started.json()).toMatchObject({ resumed: true, run: { id: runId } });
    await t.request({ method: 'POST', url: `/api/runs/${runId}/end`, body: {}, cookie: trainee.cookie });
    // A later completed run: the ended one is history, and a start would begin a new run.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await completedRun(trainee.id, 1000, 4);
    expect((await list(trainee.cookie)).get(scenarioId)!.progress.inProgress).toBeNull();
    await t.db.deleteFrom('runs').where('id', '=', later).execute();
  });

  it('gives the best completed score with its result and the number of completed runs', async () => {
    await completedRun(trainee.id, 2000, 4); // 50 %
    const best = await completedRun(trainee.id, 3500, 4); // 88 %
    await completedRun(trainee.id, 2500, 4); // 63 %, the latest
    const { progress } = (await list(trainee.cookie)).get(scenarioId)!;
    expect(progress.best).toEqual({ runId: best, scorePercent: 88, result: 'Pass' });
    expect(progress.completedRuns).toBe(3);
  });

  it("never shows another trainee's runs", async () => {
    const items = await list(other.cookie);
    expect(items.get(scenarioId)!.progress).toEqual({ inProgress: null, best: null, completedRuns: 0 });
    expect(items.get(TUTORIAL_SCENARIO_ID)!.startHere).toBe(true);
  });
});
