import { shownOrder, type PracticeState, type RunState, type UserProgress } from '@tradecraft/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { FIXTURE_FEEDBACK, FIXTURE_SCENARIO, insertScenario } from './runs.fixtures';

// One unfinished run per trainee and scenario (start continues it, Start over replaces it), ended runs that
// resume where they stopped, the step counter along the path, the debrief and "Practise this step".

const fileOptions = (stepId: string) => {
  const step = FIXTURE_SCENARIO.steps.find((candidate) => candidate.id === stepId);
  return step && 'options' in step ? step.options.length : 0;
};
const shown = (seed: string, stepId: string, fileIndex: number) =>
  shownOrder(seed, stepId, fileOptions(stepId)).indexOf(fileIndex);

describe('the life of a run', () => {
  let t: TestApp;
  let trainee: { cookie: string; id: string; email: string };
  let scenarioId: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  // A trainee and a scenario of their own per test, so every test starts with no run.
  beforeEach(async () => {
    const signedIn = await t.userWithSession('student');
    trainee = { cookie: signedIn.cookie, id: signedIn.user.id, email: signedIn.user.email };
    scenarioId = (await insertScenario(t.db)).id;
  });

  const start = (body: { startOver?: boolean } = {}, cookie = trainee.cookie) =>
    t.request({ method: 'POST', url: '/api/runs', body: { scenarioId, ...body }, cookie });
  const post = (url: string, body: object = {}, cookie = trainee.cookie) =>
    t.request({ method: 'POST', url, body, cookie });
  const answer = (runId: string, stepId: string, fileIndex: number) =>
    post(`/api/runs/${runId}/answer`, { stepId, optionIndex: shown(runId, stepId, fileIndex), timeMs: 900 });
  async function play(runId: string, stepId: string, fileIndex: number): Promise<RunState> {
    expect((await answer(runId, stepId, fileIndex)).statusCode).toBe(200);
    const moved = await post(`/api/runs/${runId}/next`);
    expect(moved.statusCode).toBe(200);
    return moved.json().run as RunState;
  }
  async function newRun(): Promise<RunState> {
    const response = await start();
    expect(response.statusCode).toBe(201);
    expect(response.json().resumed).toBe(false);
    return response.json().run as RunState;
  }
  const runsOfTrainee = () =>
    t.db
      .selectFrom('runs')
      .select(['id', 'status'])
      .where('user_id', '=', trainee.id)
      .orderBy('started_at')
      .orderBy('id')
      .execute();
  const getRun = async (runId: string) =>
    (await t.request({ method: 'GET', url: `/api/runs/${runId}`, cookie: trainee.cookie })).json().run as RunState;

  describe('one unfinished run per scenario', () => {
    it('a second start returns the run in progress, where it stands, instead of starting another', async () => {
      const first = await newRun();
      await play(first.id, 'triage', 1);

      const again = await start();
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ resumed: true, run: { id: first.id, status: 'in_progress' } });
      expect(again.json().run.currentStep.id).toBe('pivot');
      expect(await runsOfTrainee()).toEqual([{ id: first.id, status: 'in_progress' }]);
    });

    it('Start over ends the run in progress, keeps it in history with its score, and starts a new one', async () => {
      const first = await newRun();
      await play(first.id, 'triage', 1);

      const over = await start({ startOver: true });
      expect(over.statusCode).toBe(201);
      expect(over.json().resumed).toBe(false);
      const second = over.json().run as RunState;
      expect(second.id).not.toBe(first.id);
      expect(second.currentStep?.id).toBe('triage');
      expect(await runsOfTrainee()).toEqual([
        { id: first.id, status: 'ended' },
        { id: second.id, status: 'in_progress' },
      ]);
      const old = await getRun(first.id);
      expect(old).toMatchObject({ status: 'ended', scoreThousandths: 1000, resumable: false });
    });

    it('two starts at the same moment leave exactly one run in progress, and both get it', async () => {
      const [a, b] = await Promise.all([start(), start()]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
      expect(a.json().run.id).toBe(b.json().run.id);
      expect(await runsOfTrainee()).toEqual([{ id: a.json().run.id, status: 'in_progress' }]);
    });

    it('a completed run is not continued: the next start is a new run', async () => {
      const first = await newRun();
      await play(first.id, 'triage', 1);
      await play(first.id, 'pivot', 1);
      expect((await play(first.id, 'report', 0)).status).toBe('completed');
      const second = await newRun();
      expect(second.id).not.toBe(first.id);
    });
  });

  describe('ended runs are resumable', () => {
    it('Resume puts an ended run back in progress at the step where it ended, with its score', async () => {
      const run = await newRun();
      await play(run.id, 'triage', 1);
      expect((await answer(run.id, 'pivot', 0)).statusCode).toBe(200);
      const ended = (await post(`/api/runs/${run.id}/end`)).json().run as RunState;
      expect(ended).toMatchObject({ status: 'ended', resumable: true });

      const resumed = await post(`/api/runs/${run.id}/resume`);
      expect(resumed.statusCode).toBe(200);
      expect(resumed.json().run).toMatchObject({
        id: run.id,
        status: 'in_progress',
        finishedAt: null,
        scoreThousandths: 1000,
        currentStep: { id: 'pivot' },
        // The answer given before ending is still there: the next move is Next.
        answer: { nextAction: 'next' },
      });
      const moved = await post(`/api/runs/${run.id}/next`);
      expect(moved.json().run.currentStep.id).toBe('report');
    });

    it('Start Simulation continues the latest ended run instead of starting another', async () => {
      const run = await newRun();
      await play(run.id, 'triage', 1);
      await post(`/api/runs/${run.id}/end`);
      const again = await start();
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ resumed: true, run: { id: run.id, status: 'in_progress' } });
    });

    it('refuses to resume a completed run, an ended run with a newer run, or someone else’s run', async () => {
      const completed = await newRun();
      await play(completed.id, 'triage', 1);
      await play(completed.id, 'pivot', 1);
      await play(completed.id, 'report', 0);
      const refusedCompleted = await post(`/api/runs/${completed.id}/resume`);
      expect(refusedCompleted.statusCode).toBe(409);
      expect(refusedCompleted.json().error).toBe('This run was completed. Start the scenario again to play a new run.');

      const older = await newRun();
      await post(`/api/runs/${older.id}/end`);
      const newer = (await start({ startOver: true })).json().run as RunState;
      const refusedOlder = await post(`/api/runs/${older.id}/resume`);
      expect(refusedOlder.statusCode).toBe(409);
      expect(refusedOlder.json().error).toMatch(/newer run of this scenario/);
      expect((await getRun(older.id)).resumable).toBe(false);

      const admin = await t.userWithSession('admin');
      expect((await post(`/api/runs/${newer.id}/resume`, {}, admin.cookie)).statusCode).toBe(403);
      const stranger = await t.userWithSession('student');
      expect((await post(`/api/runs/${newer.id}/resume`, {}, stranger.cookie)).statusCode).toBe(404);
    });

    it('the dashboard offers Resume for an unfinished latest run only', async () => {
      const older = await newRun();
      await post(`/api/runs/${older.id}/end`);
      const ended = (await start({ startOver: true })).json().run as RunState;
      await post(`/api/runs/${ended.id}/end`);

      const progress = (
        await t.request({
          method: 'GET',
          url: `/api/progress/user/${encodeURIComponent(trainee.email)}`,
          cookie: trainee.cookie,
        })
      ).json() as UserProgress;
      const resumable = Object.fromEntries(progress.runs.map((run) => [run.id, run.resumable]));
      expect(resumable).toEqual({ [older.id]: false, [ended.id]: true });
    });
  });

  describe('the step counter follows the path', () => {
    it('counts answers so far + 1 and the steps left on the best path from here', async () => {
      const run = await newRun();
      expect(run).toMatchObject({ stepNumber: 1, stepsLeftOnBestPath: 3 });
      // A wrong answer that falls through to the detour: step 2, with detour, pivot and report left.
      const detour = await play(run.id, 'triage', 2);
      expect(detour.currentStep?.id).toBe('detour');
      expect(detour).toMatchObject({ stepNumber: 2, stepsLeftOnBestPath: 3 });
      // Answered, not yet moved on: still step 2.
      const answered = (await answer(run.id, 'detour', 0)).json().run as RunState;
      expect(answered.stepNumber).toBe(2);
      const pivot = (await post(`/api/runs/${run.id}/next`)).json().run as RunState;
      // Its place in the file is 3; along the path it is the third step, with two left.
      expect(pivot).toMatchObject({ stepNumber: 3, stepsLeftOnBestPath: 2, currentStep: { position: 3 } });
    });

    it('a Retry stays on the same step number', async () => {
      const run = await newRun();
      expect((await answer(run.id, 'triage', 0)).statusCode).toBe(200);
      const retried = (await post(`/api/runs/${run.id}/next`)).json().run as RunState;
      expect(retried).toMatchObject({ stepNumber: 1, currentStep: { id: 'triage' } });
    });
  });

  describe('the debrief', () => {
    it('lists every technique met with its right answers (0 included) and misses, and the path beside the best', async () => {
      const run = await newRun();
      await play(run.id, 'triage', 2); // wrong, falls through to the detour
      await play(run.id, 'detour', 1); // wrong, no technique
      await play(run.id, 'pivot', 0); // wrong
      const done = await play(run.id, 'report', 0); // right
      expect(done.status).toBe('completed');
      expect(done.debrief).toEqual({
        techniques: [
          {
            id: 'T1557',
            name: 'Adversary-in-the-Middle',
            right: 0,
            answered: 1,
            credit: 0,
            missed: [{ seq: 3, stepId: 'pivot', stepTitle: 'The sandbox report' }],
          },
          {
            id: 'T1566.001',
            name: 'Phishing: Spearphishing Attachment',
            right: 1,
            answered: 2,
            credit: 1,
            missed: [{ seq: 1, stepId: 'triage', stepTitle: 'A clerk reports a voicemail email' }],
          },
        ],
        pathTaken: [
          { seq: 1, stepId: 'triage', stepTitle: 'A clerk reports a voicemail email' },
          { seq: 2, stepId: 'detour', stepTitle: 'The proxy log' },
          { seq: 3, stepId: 'pivot', stepTitle: 'The sandbox report' },
          { seq: 4, stepId: 'report', stepTitle: 'Close the case' },
        ],
        bestPath: [
          { stepId: 'triage', stepTitle: 'A clerk reports a voicemail email', taken: true },
          { stepId: 'pivot', stepTitle: 'The sandbox report', taken: true },
          { stepId: 'report', stepTitle: 'Close the case', taken: true },
        ],
        bestPathHiddenSteps: 0,
        practisable: ['triage', 'detour', 'pivot'],
        practice: [],
      });
      // The run in progress has none.
      expect((await newRun()).debrief).toBeNull();
    });

    it('an ended run that can be resumed shows the best path only over the steps already answered', async () => {
      const run = await newRun();
      await play(run.id, 'triage', 1);
      const ended = (await post(`/api/runs/${run.id}/end`)).json().run as RunState;
      expect(ended.debrief?.bestPath.map((step) => step.stepId)).toEqual(['triage']);
      expect(ended.debrief?.bestPathHiddenSteps).toBe(2);
      // Where it stopped is on the path taken, unanswered.
      expect(ended.debrief?.pathTaken.at(-1)).toEqual({ seq: null, stepId: 'pivot', stepTitle: 'The sandbox report' });
    });
  });

  describe('Practise this step', () => {
    async function missedPivotRun(): Promise<RunState> {
      const run = (await start({ startOver: true })).json().run as RunState;
      await play(run.id, 'triage', 1);
      await play(run.id, 'pivot', 0);
      return play(run.id, 'report', 0);
    }

    it('replays a missed step without its key, grades the answer, and never changes the run', async () => {
      const run = await missedPivotRun();
      const before = await t.db.selectFrom('runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();

      const started = await post(`/api/runs/${run.id}/practice`, { stepId: 'pivot' });
      expect(started.statusCode).toBe(201);
      const practice = started.json().practice as PracticeState;
      expect(practice).toMatchObject({ runId: run.id, answer: null, step: { id: 'pivot', kind: 'choice' } });
      const body = started.body;
      for (const feedback of FIXTURE_FEEDBACK) expect(body).not.toContain(feedback);
      expect(body).not.toMatch(/correct/i);

      const right = shownOrder(`practice:${practice.id}`, 'pivot', 2).indexOf(1);
      const answered = await post(`/api/runs/${run.id}/practice/${practice.id}/answer`, {
        kind: 'choice',
        stepId: 'pivot',
        optionIndex: right,
        timeMs: 500,
      });
      expect(answered.statusCode).toBe(200);
      expect(answered.json().practice.answer).toMatchObject({ correct: true, credit: 1 });
      expect(answered.json().practice.answer.feedback).toContain('FEEDBACK-pivot-correct');

      const again = await post(`/api/runs/${run.id}/practice/${practice.id}/answer`, {
        kind: 'choice',
        stepId: 'pivot',
        optionIndex: right,
        timeMs: 500,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('This practice step has already been answered.');

      const after = await t.db.selectFrom('runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
      expect(after).toEqual(before);
      const state = await getRun(run.id);
      expect(state.timeline).toHaveLength(3);
      expect(state.debrief?.practice).toEqual([
        expect.objectContaining({ id: practice.id, stepId: 'pivot', correct: true, credit: 1 }),
      ]);
      // The skill map counts the run's answers only.
      const skills = (
        await t.request({ method: 'GET', url: '/api/progress/skills', cookie: trainee.cookie })
      ).json() as { techniques: { id: string; attempts: number; correct: number }[] };
      expect(skills.techniques.find((technique) => technique.id === 'T1557')).toMatchObject({
        attempts: 1,
        correct: 0,
      });
    });

    it('refuses practice while the run is in progress, for a step not missed, and for another trainee', async () => {
      const playing = await newRun();
      await play(playing.id, 'triage', 2);
      const whilePlaying = await post(`/api/runs/${playing.id}/practice`, { stepId: 'triage' });
      expect(whilePlaying.statusCode).toBe(409);
      expect(whilePlaying.json().error).toBe('Finish or end the run before practising its steps.');

      const run = await missedPivotRun();
      const notMissed = await post(`/api/runs/${run.id}/practice`, { stepId: 'triage' });
      expect(notMissed.statusCode).toBe(409);
      expect(notMissed.json().error).toBe('Only a step you missed in this run can be practised.');
      expect((await post(`/api/runs/${run.id}/practice`, { stepId: 'no-such-step' })).statusCode).toBe(409);

      const stranger = await t.userWithSession('student');
      expect((await post(`/api/runs/${run.id}/practice`, { stepId: 'pivot' }, stranger.cookie)).statusCode).toBe(404);
      const admin = await t.userWithSession('admin');
      expect((await post(`/api/runs/${run.id}/practice`, { stepId: 'pivot' }, admin.cookie)).statusCode).toBe(403);
      expect(await t.db.selectFrom('run_practice').select('id').where('run_id', '=', run.id).execute()).toEqual([]);
    });

    it('refuses an answer that does not fit the practice step with 400, leaving it open', async () => {
      const run = await missedPivotRun();
      const practice = (await post(`/api/runs/${run.id}/practice`, { stepId: 'pivot' })).json()
        .practice as PracticeState;
      const bad = await post(`/api/runs/${run.id}/practice/${practice.id}/answer`, {
        kind: 'choice',
        stepId: 'pivot',
        optionIndex: 5,
        timeMs: 10,
      });
      expect(bad.statusCode).toBe(400);
      const row = await t.db
        .selectFrom('run_practice')
        .selectAll()
        .where('id', '=', practice.id)
        .executeTakeFirstOrThrow();
      expect(row.answered_at).toBeNull();
    });
  });
});
