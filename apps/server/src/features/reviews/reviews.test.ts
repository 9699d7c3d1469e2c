import type { ReviewDetail, ReviewList, RunState, ScenarioDefinition, ScenarioFile } from '@tradecraft/shared';
import { everyKindScenario } from '@tradecraft/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { answerFor } from '../runs/answers.fixture';
import { insertScenario } from '../runs/runs.fixtures';

describe('the instructor review queue', () => {
  let t: TestApp;
  let trainee: { cookie: string; id: string; email: string };
  let admin: { cookie: string; email: string };
  let scenario: { id: string; definition: ScenarioDefinition };

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.userWithSession('student');
    trainee = { cookie: signedIn.cookie, id: signedIn.user.id, email: signedIn.user.email };
    const signedInAdmin = await t.userWithSession('admin');
    admin = { cookie: signedInAdmin.cookie, email: signedInAdmin.user.email };
    scenario = await insertScenario(t.db, { file: everyKindScenario() as ScenarioFile });
  });
  afterAll(() => t.close());

  /** A completed run, every step right, the written answer `text`; returns the run. */
  async function completedRun(text: string): Promise<RunState> {
    const started = (
      await t.request({
        method: 'POST',
        url: '/api/runs',
        body: { scenarioId: scenario.id, startOver: true },
        cookie: trainee.cookie,
      })
    ).json().run as RunState;
    let state = started;
    while (state.status === 'in_progress') {
      const step = scenario.definition.steps.find((candidate) => candidate.id === state.currentStep!.id)!;
      const fields = step.kind === 'write' ? { text } : answerFor(started.id, step, 'right');
      const answered = await t.request({
        method: 'POST',
        url: `/api/runs/${started.id}/answer`,
        body: { stepId: step.id, timeMs: 500, ...fields },
        cookie: trainee.cookie,
      });
      expect(answered.statusCode, answered.body).toBe(200);
      state = (
        await t.request({ method: 'POST', url: `/api/runs/${started.id}/next`, body: {}, cookie: trainee.cookie })
      ).json().run as RunState;
    }
    return state;
  }

  const list = async (query = '', cookie = admin.cookie) =>
    t.request({ method: 'GET', url: `/api/reviews${query}`, cookie });
  const grade = (id: number, body: unknown, cookie = admin.cookie) =>
    t.request({ method: 'POST', url: `/api/reviews/${id}/grade`, body, cookie });

  it('lists a written answer as pending, with its checks, rubric and model answer', async () => {
    const run = await completedRun('TLP:GREEN APT29 could be behind it.');
    const page = (await list(`?userId=${trainee.id}`)).json() as ReviewList;
    const item = page.items.find((candidate) => candidate.runId === run.id)!;
    expect(item).toMatchObject({
      status: 'pending',
      scenarioId: scenario.id,
      stepId: 'bluf',
      stepTitle: 'Write',
      trainee: { id: trainee.id },
    });

    const detail = (
      await t.request({ method: 'GET', url: `/api/reviews/${item.id}`, cookie: admin.cookie })
    ).json() as ReviewDetail;
    expect(detail).toMatchObject({
      text: 'TLP:GREEN APT29 could be behind it.',
      prompt: 'Write a BLUF for the CISO.',
      modelAnswer: 'TLP:AMBER APT29 is very likely behind it.',
      rubric: [
        { criterion: 'Bottom line first', points: 2 },
        { criterion: 'Actionable', points: 3 },
      ],
      points: null,
    });
    expect(detail.checks.map((check) => [check.check, check.passed])).toEqual([
      ['tlp', true],
      ['estimative_language', false],
      ['must_mention', true],
      ['max_words', true],
    ]);
    // Three of four checks: 0.3 x 3/4.
    expect(detail.autoCredit).toBe(0.225);
  });

  it("tells every admin's bell that a written answer waits for grading, and not the trainee's", async () => {
    const second = await t.userWithSession('admin');
    const bell = async (cookie: string) =>
      (
        (await t.request({ method: 'GET', url: '/api/notifications', cookie })).json() as {
          items: Array<{ kind: string; message: string; link: string | null }>;
        }
      ).items.filter((item) => item.kind === 'review_pending');
    const before = (await bell(admin.cookie)).length;
    await completedRun('TLP:GREEN APT29 is likely behind it.');
    for (const cookie of [admin.cookie, second.cookie]) {
      const pending = await bell(cookie);
      expect(pending.length).toBe(cookie === admin.cookie ? before + 1 : 1);
      expect(pending[0]).toMatchObject({ link: '/admin/reviews' });
      expect(pending[0]?.message).toContain('submitted a written answer');
      expect(pending[0]?.message).toContain(scenario.definition.name);
    }
    expect(await bell(trainee.cookie)).toEqual([]);
  });

  it('filters by status, scenario and trainee', async () => {
    const other = await insertScenario(t.db, { file: everyKindScenario() as ScenarioFile });
    expect((await list(`?scenarioId=${other.id}`)).json()).toMatchObject({ items: [], total: 0 });
    expect(
      (await list(`?status=graded&userId=${trainee.id}`))
        .json()
        .items.every((item: { status: string }) => item.status === 'graded'),
    ).toBe(true);
    expect((await list('?userId=nobody')).json()).toMatchObject({ items: [], total: 0 });
    expect((await list('?status=maybe')).statusCode).toBe(400);
  });

  it('grades by rubric: final credit, run score and result, bell and audit', async () => {
    const run = await completedRun('TLP:AMBER APT29 is very likely behind it.');
    expect(run).toMatchObject({ scoreThousandths: 7300, result: 'Awaiting review' });
    const item = ((await list(`?userId=${trainee.id}`)).json() as ReviewList).items.find(
      (candidate) => candidate.runId === run.id,
    )!;

    const graded = await grade(item.id, { points: [2, 2], comment: 'Say what to do first.' });
    expect(graded.statusCode, graded.body).toBe(200);
    // 0.3 + 0.7 x 4/5 = 0.86.
    expect(graded.json()).toMatchObject({
      status: 'graded',
      credit: 0.86,
      points: [2, 2],
      comment: 'Say what to do first.',
      gradedBy: admin.email,
    });

    const after = (await t.request({ method: 'GET', url: `/api/runs/${run.id}`, cookie: trainee.cookie })).json()
      .run as RunState;
    expect(after).toMatchObject({
      scoreThousandths: 7860,
      scorePercent: 98,
      result: 'Pass',
      pendingReviews: 0,
      awaitingReview: false,
    });
    expect(after.timeline.at(-1)).toMatchObject({
      stepId: 'bluf',
      credit: 0.86,
      reviewStatus: 'graded',
      result: { review: { status: 'graded', points: [2, 2], comment: 'Say what to do first.' } },
    });

    const bell = (await t.request({ method: 'GET', url: '/api/notifications', cookie: trainee.cookie })).json();
    expect(bell.items[0]).toMatchObject({ kind: 'review_graded', link: `/runs/${run.id}/report`, read: false });
    expect(bell.items[0].message).toContain('86 %');

    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'grade written answer')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(audit).toMatchObject({ actor: admin.email, screen: 'Review Queue' });
    expect(audit?.details).toContain(run.id);

    // Once only.
    const again = await grade(item.id, { points: [0, 0] });
    expect(again.statusCode).toBe(409);
    expect(
      ((await t.request({ method: 'GET', url: `/api/runs/${run.id}`, cookie: trainee.cookie })).json().run as RunState)
        .scoreThousandths,
    ).toBe(7860);
  });

  it('refuses points that do not fit the rubric and changes nothing', async () => {
    const run = await completedRun('TLP:AMBER APT29 is very likely behind it.');
    const item = ((await list(`?userId=${trainee.id}`)).json() as ReviewList).items.find(
      (candidate) => candidate.runId === run.id,
    )!;
    for (const body of [
      { points: [2] },
      { points: [3, 3] },
      { points: [-1, 0] },
      { points: [1, 1], comment: 'x'.repeat(4001) },
      {},
    ]) {
      expect((await grade(item.id, body)).statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect((await grade(999_999, { points: [1, 1] })).statusCode).toBe(404);
    const after = (await t.request({ method: 'GET', url: `/api/runs/${run.id}`, cookie: trainee.cookie })).json()
      .run as RunState;
    expect(after).toMatchObject({ scoreThousandths: 7300, pendingReviews: 1 });
  });

  it('refuses trainees', async () => {
    expect((await list('', trainee.cookie)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/reviews/1', cookie: trainee.cookie })).statusCode).toBe(403);
    expect((await grade(1, { points: [2, 3] }, trainee.cookie)).statusCode).toBe(403);
  });
});
