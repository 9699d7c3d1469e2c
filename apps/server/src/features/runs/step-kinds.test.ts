import {
  shownOrder,
  type RunState,
  type ScenarioDefinition,
  type ScenarioFile,
  type ScenarioStep,
} from '@tradecraft/shared';
import { everyKindScenario } from '@tradecraft/shared/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { answerFor } from './answers.fixture';
import { insertScenario } from './runs.fixtures';

/**
 * The run engine with every step kind, through the API: what the browser receives before answering (no key
 * of any kind), malformed answers, hints, credit and scoring, the per-run shuffle.
 */
describe('the run engine with every step kind', () => {
  let t: TestApp;
  let cookie: string;
  let scenario: { id: string; definition: ScenarioDefinition };

  beforeAll(async () => {
    t = await createTestApp();
    ({ cookie } = await t.userWithSession('student'));
    scenario = await insertScenario(t.db, { file: everyKindScenario() as ScenarioFile });
  });
  afterAll(() => t.close());

  const stepOf = (id: string): ScenarioStep => scenario.definition.steps.find((step) => step.id === id)!;
  const start = async (): Promise<RunState> => {
    const response = await t.request({
      method: 'POST',
      url: '/api/runs',
      body: { scenarioId: scenario.id, startOver: true },
      cookie,
    });
    expect(response.statusCode).toBe(201);
    return response.json().run as RunState;
  };
  const get = async (runId: string): Promise<RunState> =>
    (await t.request({ method: 'GET', url: `/api/runs/${runId}`, cookie })).json().run as RunState;
  const post = (runId: string, action: string, body: Record<string, unknown> = {}) =>
    t.request({ method: 'POST', url: `/api/runs/${runId}/${action}`, body, cookie });
  const answer = (runId: string, stepId: string, fields: Record<string, unknown>) =>
    post(runId, 'answer', { stepId, timeMs: 1000, ...fields });

  /** Plays right answers up to (not including) `stepId` and returns the run's state there. */
  async function runAt(stepId: string): Promise<RunState> {
    const run = await start();
    let state = run;
    while (state.currentStep?.id !== stepId) {
      const current = stepOf(state.currentStep!.id);
      expect((await answer(run.id, current.id, answerFor(run.id, current, 'right'))).statusCode).toBe(200);
      state = (await post(run.id, 'next')).json().run as RunState;
    }
    return state;
  }

  describe('what the browser receives before the first submission', () => {
    // For each step: strings that would give its key away, none of which may be in the run's state.
    const keys: Array<[string, string[]]> = [
      ['pick', ['"credit"', 'correct_option', 'HINT-pick']],
      ['many', ['"correct"']],
      ['order', []],
      ['guess', ['"accept"', '"outcome"', 'very-likely', '"likely"']],
      ['grade', ['"reliability"', '"credibility"', '"admiralty"']],
      ['pull', ['"accept"', 'evil.example.com"']],
      ['weigh', ['"marks"', '"best"']],
      // The term to mention is part of the key: only its kind is sent ("a name or term from the case").
      ['bluf', ['model_answer', 'modelAnswer', 'APT29 is very likely behind it', 'HINT-bluf', '"APT29"']],
    ];

    it.each(keys)(
      '%s: no key, no feedback, no unopened hint, in the state or the current step',
      async (stepId, secrets) => {
        const state = await runAt(stepId);
        const body = JSON.stringify(state);
        const current = JSON.stringify(state.currentStep);
        expect(state.answer).toBeNull();
        expect(state.currentStep).toMatchObject({ id: stepId, kind: stepOf(stepId).kind });
        for (const secret of secrets) expect(current, secret).not.toContain(secret);
        // Earlier steps' keys are history (revealed when answered); this step's never appear anywhere yet.
        for (const secret of secrets.filter((text) => !text.startsWith('"')))
          expect(body, secret).not.toContain(secret);
        expect(current).not.toContain('next_step');
        expect(current).not.toContain('"feedback"');
        // The ATT&CK technique often names the answer: it comes with the verdict.
        expect(state.currentStep?.technique).toBeNull();
      },
    );

    it('shows rank items in a per-run shuffle, stable on resume, never derived from the file order', async () => {
      const orders = new Set<string>();
      for (let round = 0; round < 6; round++) {
        const state = await runAt('order');
        const texts = state.currentStep!.kind === 'rank' ? state.currentStep!.options.map((option) => option.text) : [];
        expect(texts).toEqual(shownOrder(state.id, 'order', 3).map((file) => ['First', 'Second', 'Third'][file]));
        expect((await get(state.id)).currentStep).toEqual(state.currentStep);
        orders.add(texts.join('|'));
      }
      expect(orders.size).toBeGreaterThan(1);
    });
  });

  describe('malformed answers', () => {
    it.each<[string, string, Record<string, unknown>]>([
      ['the wrong kind of answer', 'many', { optionIndex: 0 }],
      ['an index out of range', 'many', { selected: [5] }],
      ['duplicate indexes in an order', 'order', { order: [0, 0, 1] }],
      ['an unknown term', 'guess', { term: 'probably', confidence: 'low' }],
      ['an unknown grade', 'grade', { reliability: 'Z', credibility: 2 }],
      ['a credibility out of range', 'grade', { reliability: 'B', credibility: 7 }],
      ['more values than fields', 'pull', { values: ['a', 'b', 'c'] }],
      [
        'a matrix of the wrong size',
        'weigh',
        {
          marks: [
            ['C', 'I', 'N'],
            ['C', 'I', 'N'],
          ],
          best: 0,
        },
      ],
      ['a 1 MB text', 'bluf', { text: 'x'.repeat(1024 * 1024) }],
    ])('refuses %s with 400 and changes nothing', async (_case, stepId, fields) => {
      const before = await runAt(stepId);
      const response = await answer(before.id, stepId, fields);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual(expect.any(String));
      const after = await get(before.id);
      expect(after).toMatchObject({
        score: before.score,
        answer: null,
        playedSteps: before.playedSteps,
        currentStep: { id: stepId },
      });
      expect(after.timeline).toHaveLength(before.timeline.length);
    });
  });

  describe('hints', () => {
    it('sends the hint only on request, records it, and charges an answer given after it', async () => {
      const state = await runAt('pick');
      expect(state.currentStep?.hintState).toEqual({ available: true, opened: false, cost: 0.25, text: null });
      const opened = await post(state.id, 'hint', { stepId: 'pick' });
      expect(opened.statusCode).toBe(200);
      expect(opened.json()).toMatchObject({ hint: 'HINT-pick: think about scope.', cost: 0.25, charged: true });
      expect((await get(state.id)).currentStep?.hintState).toEqual({
        available: true,
        opened: true,
        cost: 0.25,
        text: 'HINT-pick: think about scope.',
      });

      const answered = await answer(state.id, 'pick', answerFor(state.id, stepOf('pick'), 'right'));
      expect(answered.json()).toMatchObject({
        correct: true,
        credit: 0.75,
        result: { hintCharged: true, rawCredit: 1 },
      });
      expect(answered.json().run.timeline.at(-1)).toMatchObject({ stepId: 'pick', hintUsed: true, credit: 0.75 });
      // Opened after answering, a hint is free.
      expect((await post(state.id, 'hint', { stepId: 'pick' })).json()).toMatchObject({ charged: false, cost: 0 });
    });

    it('answers 404 for a step without a hint and 409 for a step that is not current', async () => {
      const state = await runAt('many');
      expect((await post(state.id, 'hint', { stepId: 'many' })).statusCode).toBe(404);
      expect((await post(state.id, 'hint', { stepId: 'pick' })).statusCode).toBe(409);
      expect((await get(state.id)).currentStep?.hintState.opened).toBe(false);
    });
  });

  describe('credit and score', () => {
    it('plays every kind right: exact credit per step, the written answer awaiting review', async () => {
      const state = await runAt('bluf');
      const written = await answer(state.id, 'bluf', answerFor(state.id, stepOf('bluf'), 'right'));
      expect(written.json()).toMatchObject({
        credit: 0.3,
        result: {
          kind: 'write',
          autoCredit: 0.3,
          review: { status: 'pending' },
          modelAnswer: 'TLP:AMBER APT29 is very likely behind it.',
        },
      });
      const done = (await post(state.id, 'next')).json().run as RunState;
      // The briefing is unscored: 8 scored steps, 7 right and the write step's automatic share.
      expect(done).toMatchObject({
        status: 'completed',
        scoreThousandths: 7300,
        score: 7.3,
        playedSteps: 8,
        percentBase: 8,
        scorePercent: 91,
        result: 'Awaiting review',
        awaitingReview: true,
        pendingReviews: 1,
      });
      expect(done.timeline.map((decision) => [decision.stepId, decision.kind, decision.credit])).toEqual([
        ['brief', 'choice', 0],
        ['pick', 'choice', 1],
        ['many', 'multi', 1],
        ['order', 'rank', 1],
        ['guess', 'estimate', 1],
        ['grade', 'grade-source', 1],
        ['pull', 'extract', 1],
        ['weigh', 'ach', 1],
        ['bluf', 'write', 0.3],
      ]);
      expect(done.skillScores.map((skill) => [skill.skill, skill.attempts, skill.credit])).toEqual([
        ['source-evaluation', 1, 1],
        ['pivoting', 1, 1],
        ['analysis', 1, 1],
        ['estimation', 1, 1],
        ['prioritisation', 1, 1],
        ['dissemination', 1, 0.3],
        ['response', 2, 2],
      ]);
    });

    it('gives partial credit element by element and takes a weak estimate down its consequence branch', async () => {
      const state = await runAt('many');
      const order = shownOrder(state.id, 'many', 3);
      const multi = await answer(state.id, 'many', { selected: [order.indexOf(0)] });
      expect(multi.json()).toMatchObject({
        credit: 0.5,
        result: { verdict: 'partial', rightPicked: 1, wrongPicked: 0, rightCount: 2 },
      });
      await post(state.id, 'next');

      const rankOrder = shownOrder(state.id, 'order', 3);
      const reversed = await answer(state.id, 'order', { order: [2, 1, 0].map((file) => rankOrder.indexOf(file)) });
      expect(reversed.json()).toMatchObject({
        credit: 0,
        result: {
          discordantPairs: 3,
          totalPairs: 3,
          items: [{ text: 'First' }, { text: 'Second' }, { text: 'Third' }],
        },
      });
      await post(state.id, 'next');

      const estimate = await answer(state.id, 'guess', { term: 'roughly-even-chance', confidence: 'low' });
      expect(estimate.json()).toMatchObject({
        credit: 0.5,
        result: { accept: ['likely', 'very-likely'], outcome: true, distance: 1 },
      });
      // Under the below branch's credit (0.5 is not under 0.5): the ordinary next step.
      expect(((await post(state.id, 'next')).json().run as RunState).currentStep?.id).toBe('grade');

      const graded = await answer(state.id, 'grade', { reliability: 'F', credibility: 3 });
      expect(graded.json()).toMatchObject({
        credit: 0.5,
        result: {
          reliability: { given: 'F', key: 'C', verdict: 'wrong' },
          credibility: { given: 3, key: 3, verdict: 'right' },
        },
      });
    });

    it('ends early over the best path, so ending never inflates the percent', async () => {
      const state = await runAt('order');
      const ended = (await post(state.id, 'end')).json().run as RunState;
      expect(ended).toMatchObject({
        status: 'ended',
        scoreThousandths: 2000,
        playedSteps: 2,
        bestPathSteps: 8,
        percentBase: 8,
        scorePercent: 25,
        result: '-',
      });
    });
  });

  it('writes every response of a played run with JSON.stringify: nothing undeclared, nothing to coerce', async () => {
    // The fast path of the run engine's serializer (plugins/fast-serializer.ts): a key the schemas do not declare
    // would be stripped, but every answer would then take the slower schema-driven serializer.
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const responses = [];
      const run = await start();
      let state = run;
      for (const quality of ['wrong', 'right'] as const) {
        while (state.status === 'in_progress' && state.currentStep) {
          const step = stepOf(state.currentStep.id);
          const answered = await answer(run.id, step.id, answerFor(run.id, step, quality));
          const moved = await post(run.id, 'next');
          responses.push(answered, moved);
          state = moved.json().run as RunState;
          if (quality === 'wrong') break;
        }
      }
      responses.push(await t.request({ method: 'GET', url: `/api/runs/${run.id}`, cookie }));
      expect(state.status).toBe('completed');
      const written = stringify.mock.calls.map(([value]) => value);
      for (const response of responses) {
        expect(response.statusCode).toBe(200);
        expect(written).toContainEqual(response.json());
      }
    } finally {
      stringify.mockRestore();
    }
  });
});
