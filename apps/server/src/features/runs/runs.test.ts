import { shownOrder, type RunState } from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { deleteScenario, FIXTURE_FEEDBACK, FIXTURE_SCENARIO, insertScenario } from './runs.fixtures';
import { claimAnswer, moveRunReturningRun } from './runs.repository';

/** Where an option of the fixture (by its index in the file) is shown in a run: options come in a per-run shuffle. */
function shown(runId: string, stepId: string, fileIndex: number): number {
  const step = FIXTURE_SCENARIO.steps.find((candidate) => candidate.id === stepId);
  const count = step && 'options' in step ? step.options.length : 0;
  if (count === 0) return fileIndex;
  const order = shownOrder(runId, stepId, count);
  // An index the step does not have stays as it is (the tests of out-of-range options send it).
  return fileIndex >= 0 && fileIndex < count ? order.indexOf(fileIndex) : fileIndex;
}

const TRIAGE_CORRECT = 'Purge the message everywhere and scope the recipients';

describe('the run engine', () => {
  let t: TestApp;
  let student: { cookie: string; id: string };
  let scenarioId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.userWithSession('student');
    student = { cookie: signedIn.cookie, id: signedIn.user.id };
    scenarioId = (await insertScenario(t.db)).id;
  });
  afterAll(() => t.close());

  const start = (cookie = student.cookie, id = scenarioId) =>
    t.request({ method: 'POST', url: '/api/runs', body: { scenarioId: id, startOver: true }, cookie });
  const get = (runId: string, cookie = student.cookie) =>
    t.request({ method: 'GET', url: `/api/runs/${runId}`, cookie });
  /** Answers with the option at `fileIndex` in the fixture file, sent as the index the run shows it at. */
  const answer = (runId: string, stepId: string, fileIndex: number, cookie = student.cookie, timeMs = 1500) =>
    t.request({
      method: 'POST',
      url: `/api/runs/${runId}/answer`,
      body: { stepId, optionIndex: shown(runId, stepId, fileIndex), timeMs },
      cookie,
    });
  const next = (runId: string, cookie = student.cookie) =>
    t.request({ method: 'POST', url: `/api/runs/${runId}/next`, body: {}, cookie });
  const end = (runId: string, cookie = student.cookie) =>
    t.request({ method: 'POST', url: `/api/runs/${runId}/end`, body: {}, cookie });

  async function newRun(cookie = student.cookie): Promise<RunState> {
    const response = await start(cookie);
    expect(response.statusCode).toBe(201);
    return response.json().run as RunState;
  }
  async function state(runId: string): Promise<RunState> {
    const response = await get(runId);
    expect(response.statusCode).toBe(200);
    return response.json().run as RunState;
  }
  async function answerAndMove(runId: string, stepId: string, optionIndex: number): Promise<RunState> {
    expect((await answer(runId, stepId, optionIndex)).statusCode).toBe(200);
    const moved = await next(runId);
    expect(moved.statusCode).toBe(200);
    return moved.json().run as RunState;
  }

  describe('starting a run', () => {
    it('records the scenario name, step count and start time, with score 0 at the first step', async () => {
      const before = new Date().toISOString();
      const run = await newRun();
      expect(run).toMatchObject({
        scenarioId,
        scenarioName: 'Fixture: voicemail lure',
        stepCount: 4,
        status: 'in_progress',
        score: 0,
        scoreThousandths: 0,
        scorePercent: 0,
        finishedAt: null,
        answer: null,
        timeline: [],
        techniqueScores: [],
        scenarioDeleted: false,
        readOnly: false,
      });
      expect(run.startedAt >= before).toBe(true);
      expect(run.currentStep).toMatchObject({
        id: 'triage',
        position: 1,
        title: 'A clerk reports a voicemail email',
        // The hint is not sent until asked for.
        hint: null,
        hintState: { available: true, opened: false, cost: 0.25, text: null },
        // The technique names the answer ("Phishing"), so it comes with the verdict.
        technique: null,
      });
      // The options in the run's own shuffle, every one once.
      const fileTexts = [
        'Open the attachment on your own workstation',
        TRIAGE_CORRECT,
        'Block the sender and wait for more reports',
      ];
      expect(run.currentStep?.options.map((option) => option.text)).toEqual(
        shownOrder(run.id, 'triage', 3).map((file) => fileTexts[file]),
      );
      expect(run.currentStep?.artifacts[0]).toMatchObject({ kind: 'email', title: 'Reported message' });

      const row = await t.db.selectFrom('runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        user_id: student.id,
        scenario_name: 'Fixture: voicemail lure',
        step_count: 4,
        status: 'in_progress',
      });
      expect(row.started_at).toBe(run.startedAt);
    });

    it('refuses an unknown or deleted scenario with 404', async () => {
      const unknown = await start(student.cookie, 'no-such-scenario');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe('Scenario not found.');

      const deleted = await insertScenario(t.db, { deleted: true });
      expect((await start(student.cookie, deleted.id)).statusCode).toBe(404);
      expect(await t.db.selectFrom('runs').select('id').where('scenario_id', '=', deleted.id).execute()).toEqual([]);
    });

    it('needs a signed-in user', async () => {
      const response = await t.request({ method: 'POST', url: '/api/runs', body: { scenarioId } });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('what a trainee receives before answering', () => {
    const expectNoAnswers = (json: string, feedback: string[] = FIXTURE_FEEDBACK) => {
      expect(json).not.toContain('correct_option');
      expect(json).not.toContain('correctOption');
      expect(json).not.toContain('next_step');
      expect(json).not.toContain('nextStep');
      for (const text of feedback) expect(json).not.toContain(text);
    };

    it('never contains the correct option, next steps or any feedback', async () => {
      const started = await start();
      expectNoAnswers(started.body);
      const runId = started.json().run.id as string;
      expectNoAnswers((await get(runId)).body);

      // Moved on to the next step: its own answers stay hidden (the answered step's key and feedback are history now).
      await answerAndMove(runId, 'triage', 1);
      const onPivot = await get(runId);
      expect(onPivot.json().run.currentStep.id).toBe('pivot');
      expect(onPivot.body).not.toContain('"next_step"');
      for (const text of FIXTURE_FEEDBACK.filter((feedback) => !feedback.startsWith('FEEDBACK-triage-')))
        expect(onPivot.body).not.toContain(text);
    });
  });

  describe('answering and moving on', () => {
    it('branches to the step a correct option names, scoring the answer and its technique', async () => {
      const run = await newRun();
      const answered = await answer(run.id, 'triage', 1);
      expect(answered.statusCode).toBe(200);
      expect(answered.json()).toMatchObject({
        correct: true,
        feedback: 'Correct!\nFEEDBACK-triage-correct: scope first.',
        nextAction: 'next',
        score: 1,
      });

      // Resume shows the answered step exactly as it was left.
      const resumed = await state(run.id);
      expect(resumed.currentStep?.id).toBe('triage');
      expect(resumed.answer).toMatchObject({
        optionIndex: shown(run.id, 'triage', 1),
        correct: true,
        correctOptionIndex: shown(run.id, 'triage', 1),
        feedback: 'Correct!\nFEEDBACK-triage-correct: scope first.',
        nextAction: 'next',
        credit: 1,
        result: { kind: 'choice', chosenText: TRIAGE_CORRECT, correctText: TRIAGE_CORRECT, verdict: 'right' },
      });
      expect(resumed.answer).toEqual({ ...answered.json().run.answer });
      // With the verdict, the step names its technique.
      expect(resumed.currentStep?.technique).toEqual({ id: 'T1566.001', name: 'Phishing: Spearphishing Attachment' });
      expect(resumed.techniqueScores).toEqual([
        { id: 'T1566.001', name: 'Phishing: Spearphishing Attachment', count: 1, attempts: 1, credit: 1 },
      ]);

      const moved = await next(run.id);
      expect(moved.statusCode).toBe(200);
      expect(moved.json().run).toMatchObject({ currentStep: { id: 'pivot', position: 3 }, answer: null, score: 1 });
    });

    it('falls through to the following step when the option names none', async () => {
      const run = await newRun();
      const answered = await answer(run.id, 'triage', 2);
      expect(answered.json()).toMatchObject({
        correct: false,
        feedback: `Incorrect. The correct answer was: "${TRIAGE_CORRECT}"\nFEEDBACK-triage-fallthrough: not enough.`,
        nextAction: 'next',
        score: 0,
      });
      expect((await next(run.id)).json().run.currentStep.id).toBe('detour');

      // A wrong answer without feedback of its own gets the headline alone, and still falls through.
      const onDetour = await answer(run.id, 'detour', 0);
      expect(onDetour.json()).toMatchObject({ correct: true, feedback: 'Correct!', score: 1 });
      const moved = (await next(run.id)).json().run as RunState;
      expect(moved.currentStep?.id).toBe('pivot');
      // detour has no technique: only the score moved; triage's technique was attempted for no credit.
      expect(moved.techniqueScores).toEqual([
        { id: 'T1566.001', name: 'Phishing: Spearphishing Attachment', count: 0, attempts: 1, credit: 0 },
      ]);
    });

    it('retries the same step when the option has next_step null, and takes a new answer that earns nothing', async () => {
      const run = await newRun();
      const answered = await answer(run.id, 'triage', 0);
      expect(answered.json()).toMatchObject({ correct: false, nextAction: 'retry', score: 0 });

      const retried = (await next(run.id)).json().run as RunState;
      expect(retried.currentStep?.id).toBe('triage');
      expect(retried.answer).toBeNull();

      // The visit's credit was fixed by its first submission: the right answer after a Retry is recorded, for 0.
      const second = await answer(run.id, 'triage', 1);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toMatchObject({
        correct: true,
        score: 0,
        credit: 0,
        result: { firstSubmission: false, rawCredit: 1, credit: 0 },
      });
      const after = await state(run.id);
      expect(after.timeline.map((entry) => [entry.stepId, entry.correct, entry.verdict])).toEqual([
        ['triage', false, 'wrong'],
        ['triage', true, 'after-retry'],
      ]);
      // The right answer after a Retry is never a right first answer: the step stays missed.
      expect(after).toMatchObject({
        correctCount: 0,
        incorrectCount: 1,
        verdicts: { right: 0, partlyRight: 0, wrong: 1, afterRetry: 1, awaitingReview: 0 },
      });
    });

    it('completes the run past the last step, with the ATT&CK counts and the timeline', async () => {
      const run = await newRun();
      await answerAndMove(run.id, 'triage', 1);
      await answerAndMove(run.id, 'pivot', 0);
      const last = await answer(run.id, 'report', 0);
      expect(last.json()).toMatchObject({ correct: true, nextAction: 'finish', score: 2 });

      const done = (await next(run.id)).json().run as RunState;
      // Three scored steps played, two right: 67 % over the path played (the skipped detour does not count).
      expect(done).toMatchObject({
        status: 'completed',
        score: 2,
        scoreThousandths: 2000,
        playedSteps: 3,
        percentBase: 3,
        scorePercent: 67,
        result: 'Fail',
        correctCount: 2,
        incorrectCount: 1,
        currentStep: null,
        answer: null,
        techniqueScores: [
          { id: 'T1566.001', name: 'Phishing: Spearphishing Attachment', count: 2, attempts: 2, credit: 2 },
          { id: 'T1557', name: 'Adversary-in-the-Middle', count: 0, attempts: 1, credit: 0 },
        ],
      });
      expect(done.finishedAt).not.toBeNull();

      // The duration is finish minus start: 95 s when the run is recorded as started 95 s before it finished.
      await t.db
        .updateTable('runs')
        .set({ started_at: new Date(Date.parse(done.finishedAt!) - 95_000).toISOString() })
        .where('id', '=', run.id)
        .execute();
      expect((await state(run.id)).durationSeconds).toBe(95);
      expect(done.timeline).toMatchObject([
        {
          seq: 1,
          stepId: 'triage',
          stepTitle: 'A clerk reports a voicemail email',
          decision: TRIAGE_CORRECT,
          correct: true,
          timeMs: 1500,
        },
        {
          seq: 2,
          stepId: 'pivot',
          decision: 'A simple fake login page',
          correct: false,
          technique: { id: 'T1557', name: 'Adversary-in-the-Middle' },
        },
        { seq: 3, stepId: 'report', correct: true },
      ]);

      const rows = await t.db
        .selectFrom('run_decisions')
        .selectAll()
        .where('run_id', '=', run.id)
        .orderBy('seq')
        .execute();
      expect(rows.map((row) => [row.step_id, row.option_index, row.correct, row.technique, row.time_ms])).toEqual([
        ['triage', 1, 1, 'T1566.001', 1500],
        ['pivot', 0, 0, 'T1557', 1500],
        ['report', 0, 1, 'T1566.001', 1500],
      ]);
      expect(rows[1]!.feedback).toBe(
        'Incorrect. The correct answer was: "An adversary-in-the-middle relay"\nFEEDBACK-pivot-wrong: it relays the real page.',
      );
    });

    it('ends at once with End Simulation, keeping the score', async () => {
      const run = await newRun();
      await answer(run.id, 'triage', 1);
      const ended = await end(run.id);
      expect(ended.statusCode).toBe(200);
      // Ended early: the percent divides by the best path (triage, pivot, report), never by the one step played.
      expect(ended.json().run).toMatchObject({
        status: 'ended',
        score: 1,
        playedSteps: 1,
        percentBase: 3,
        scorePercent: 33,
        result: '-',
        currentStep: null,
      });
      expect(ended.json().run.finishedAt).not.toBeNull();
    });

    it('refuses any change to a finished run with 409 and changes nothing', async () => {
      const ended = await newRun();
      await end(ended.id);
      const completed = await newRun();
      await answerAndMove(completed.id, 'triage', 1);
      await answerAndMove(completed.id, 'pivot', 1);
      await answerAndMove(completed.id, 'report', 0);

      for (const run of [ended, completed]) {
        const before = await state(run.id);
        for (const response of [await answer(run.id, 'triage', 1), await next(run.id), await end(run.id)]) {
          expect(response.statusCode).toBe(409);
          expect(response.json().error).toBe('This run has already finished.');
        }
        expect(await state(run.id)).toMatchObject({
          status: before.status,
          score: before.score,
          finishedAt: before.finishedAt,
        });
        expect((await state(run.id)).timeline).toHaveLength(before.timeline.length);
      }
    });
  });

  describe('refusing answers that do not fit the run', () => {
    it('refuses an answer to a step that is not the current one', async () => {
      const run = await newRun();
      for (const stepId of ['pivot', 'no-such-step']) {
        const response = await answer(run.id, stepId, 1);
        expect(response.statusCode).toBe(409);
        expect(response.json().error).toBe('That step is not the current step of this run.');
      }
      expect(await state(run.id)).toMatchObject({ score: 0, timeline: [], answer: null });
    });

    it('refuses an option the step does not have, and bad input', async () => {
      const run = await newRun();
      const outOfRange = await answer(run.id, 'triage', 3);
      expect(outOfRange.statusCode).toBe(400);
      expect(outOfRange.json().error).toBe('That option does not exist on this step.');
      expect((await answer(run.id, 'triage', 9)).statusCode).toBe(400);
      expect((await answer(run.id, 'triage', -1)).statusCode).toBe(400);
      expect((await answer(run.id, 'triage', 1, student.cookie, -5)).statusCode).toBe(400);
      expect((await answer(run.id, 'triage', 1, student.cookie, 2 * 24 * 60 * 60 * 1000)).statusCode).toBe(400);
      expect(await state(run.id)).toMatchObject({ score: 0, timeline: [], answer: null });
    });

    it('refuses a second answer to the same step with 409', async () => {
      const run = await newRun();
      expect((await answer(run.id, 'triage', 1)).statusCode).toBe(200);
      const again = await answer(run.id, 'triage', 2);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('This step has already been answered.');
      expect(await state(run.id)).toMatchObject({ score: 1, answer: { optionIndex: shown(run.id, 'triage', 1) } });
      expect((await state(run.id)).timeline).toHaveLength(1);
    });

    it('refuses Next before the step is answered', async () => {
      const run = await newRun();
      const response = await next(run.id);
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('Answer the current step before moving on.');
      expect((await state(run.id)).currentStep?.id).toBe('triage');
    });
  });

  describe('racing requests', () => {
    it('takes exactly one of two concurrent answers to the same step', async () => {
      for (let round = 0; round < 5; round += 1) {
        const run = await newRun();
        const responses = await Promise.all([answer(run.id, 'triage', 1), answer(run.id, 'triage', 1)]);
        expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
        const after = await state(run.id);
        expect(after.score).toBe(1);
        expect(after.timeline).toHaveLength(1);
        expect(after.techniqueScores).toEqual([
          { id: 'T1566.001', name: 'Phishing: Spearphishing Attachment', count: 1, attempts: 1, credit: 1 },
        ]);
      }
    });

    it('moves on exactly once for two concurrent Next requests', async () => {
      for (let round = 0; round < 5; round += 1) {
        const run = await newRun();
        await answer(run.id, 'triage', 1);
        const responses = await Promise.all([next(run.id), next(run.id)]);
        expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
        expect((await state(run.id)).currentStep?.id).toBe('pivot');
      }
    });

    it('retries exactly once for two concurrent Next requests after a Retry answer', async () => {
      const run = await newRun();
      await answer(run.id, 'triage', 0);
      const responses = await Promise.all([next(run.id), next(run.id)]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      expect(await state(run.id)).toMatchObject({ currentStep: { id: 'triage' }, answer: null });
    });
  });

  describe('the conditional updates behind the race rules', () => {
    // Whatever the timing of two requests, the second write finds the run no longer in the state it expects.
    it('claims a step for an answer only once', async () => {
      const run = await newRun();
      const basis = {
        id: run.id,
        current_step_id: 'triage',
        visit_submitted: 0,
        hint_opened: 0,
        score_thousandths: 0,
        played_steps: 0,
        pending_reviews: 0,
      };
      const changes = {
        score_thousandths: 1000,
        played_steps: 1,
        percent_base: 1,
        pending_reviews: 0,
        last_option_index: 0,
        last_credit_thousandths: 1000,
        updated_at: new Date().toISOString(),
      };
      // A hint opened after the answer was decided (its charge not applied) leaves the answer nothing to claim.
      await t.db.updateTable('runs').set({ hint_opened: 1 }).where('id', '=', run.id).execute();
      expect(await claimAnswer(t.db, basis, changes)).toBeUndefined();
      const withHint = { ...basis, hint_opened: 1 };
      expect(await claimAnswer(t.db, withHint, changes)).toMatchObject({ id: run.id, current_answered: 1 });
      expect(await claimAnswer(t.db, withHint, changes)).toBeUndefined();
      expect(await claimAnswer(t.db, { ...withHint, current_step_id: 'pivot' }, changes)).toBeUndefined();
    });

    it('moves on from an answered step only once, Retry included', async () => {
      const run = await newRun();
      await answer(run.id, 'triage', 0);
      const move = {
        runId: run.id,
        fromStepId: 'triage',
        optionIndex: 0,
        to: { kind: 'retry' as const },
        percentBase: 1,
        at: new Date().toISOString(),
      };
      expect(await moveRunReturningRun(t.db, move)).toMatchObject({ id: run.id, current_answered: 0 });
      expect(await moveRunReturningRun(t.db, move)).toBeUndefined();
      expect(await moveRunReturningRun(t.db, { ...move, to: { kind: 'finish' as const } })).toBeUndefined();
      expect(await state(run.id)).toMatchObject({ status: 'in_progress', currentStep: { id: 'triage' }, answer: null });
    });
  });

  describe('who may see and play a run', () => {
    it("hides someone else's run with 404, and lets an admin read it but not play it", async () => {
      const run = await newRun();
      const other = await t.userWithSession('student');
      for (const response of [
        await get(run.id, other.cookie),
        await answer(run.id, 'triage', 1, other.cookie),
        await next(run.id, other.cookie),
        await end(run.id, other.cookie),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json().error).toBe('Simulation run not found.');
      }

      const admin = await t.userWithSession('admin');
      const read = await get(run.id, admin.cookie);
      expect(read.statusCode).toBe(200);
      expect(read.json().run).toMatchObject({ id: run.id, readOnly: true });
      const played = await answer(run.id, 'triage', 1, admin.cookie);
      expect(played.statusCode).toBe(403);
      expect((await end(run.id, admin.cookie)).statusCode).toBe(403);
      expect(await state(run.id)).toMatchObject({ status: 'in_progress', score: 0, timeline: [] });
    });

    it('answers 404 for a run that does not exist', async () => {
      expect((await get('no-such-run')).statusCode).toBe(404);
    });
  });

  describe('a run whose scenario was deleted', () => {
    it('still shows what was recorded, refuses answers and moves with 410, and can be ended', async () => {
      const scenario = await insertScenario(t.db);
      const started = (await start(student.cookie, scenario.id)).json().run as RunState;
      await answer(started.id, 'triage', 1);
      await deleteScenario(t.db, scenario.id);

      const shown = await state(started.id);
      expect(shown).toMatchObject({
        scenarioName: 'Fixture: voicemail lure',
        stepCount: 4,
        status: 'in_progress',
        score: 1,
        scenarioDeleted: true,
        currentStep: null,
        answer: null,
      });
      expect(shown.timeline).toHaveLength(1);

      for (const response of [await next(started.id), await answer(started.id, 'triage', 1)]) {
        expect(response.statusCode).toBe(410);
        expect(response.json().error).toBe('This scenario has been deleted.');
      }
      expect((await state(started.id)).score).toBe(1);

      const ended = await end(started.id);
      expect(ended.statusCode).toBe(200);
      expect(ended.json().run).toMatchObject({ status: 'ended', score: 1 });
    });
  });
});

describe('starting runs per user', () => {
  it('refuses a start over RUN_STARTS_PER_MINUTE with 429 and a readable message, for that user only', async () => {
    const t = await createTestApp({ RUN_STARTS_PER_MINUTE: '2' });
    try {
      const scenarioId = (await insertScenario(t.db)).id;
      const [first, second] = [await t.userWithSession('student'), await t.userWithSession('student')];
      const start = (cookie: string) =>
        t.request({ method: 'POST', url: '/api/runs', body: { scenarioId, startOver: true }, cookie });
      expect((await start(first.cookie)).statusCode).toBe(201);
      expect((await start(first.cookie)).statusCode).toBe(201);
      const refused = await start(first.cookie);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toBe(
        'You have started too many runs in the last minute. Please wait a minute and try again.',
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await t.db.selectFrom('runs').select('id').where('user_id', '=', first.user.id).execute()).toHaveLength(2);
      expect((await start(second.cookie)).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});
