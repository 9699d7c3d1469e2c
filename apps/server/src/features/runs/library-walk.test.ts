import type { RunState, ScenarioDefinition, ScenarioStep } from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { loadBuiltinScenarios } from '../scenarios/scenarios.loader';
import { answerFor } from './answers.fixture';
import { parseStoredDefinition } from './run-figures';

/**
 * Every built-in scenario played through the real run engine: once answering everything right, once taking a
 * wrong answer at every step (and the right one after a Retry). Both must reach the end, so no scenario can
 * trap a trainee, and the right answers must pass.
 */
const MAX_ANSWERS = 200;
// Each walk plays the whole library (hundreds of requests); on a busy machine that takes longer than one request's test.
const WALK_TIMEOUT_MS = 120_000;

describe('the built-in library, played to the end', () => {
  let t: TestApp;
  let cookie: string;
  let library: ScenarioDefinition[];

  beforeAll(async () => {
    // One trainee walks the whole library twice: more run starts a minute than a person's limit allows.
    t = await createTestApp({ RUN_STARTS_PER_MINUTE: '1000' });
    const loaded = await loadBuiltinScenarios(t.db, undefined, { warn: () => undefined });
    expect(loaded.skipped).toEqual([]);
    const rows = await t.db.selectFrom('scenarios').select('definition').where('origin', '=', 'builtin').execute();
    library = rows.map((row) => parseStoredDefinition(row.definition)!);
    ({ cookie } = await t.userWithSession('student'));
  });
  afterAll(() => t.close());

  async function play(
    scenario: ScenarioDefinition,
    quality: (retried: boolean) => 'right' | 'wrong',
  ): Promise<RunState> {
    const steps = new Map<string, ScenarioStep>(scenario.steps.map((step) => [step.id, step]));
    const started = await t.request({
      method: 'POST',
      url: '/api/runs',
      body: { scenarioId: scenario.id, startOver: true },
      cookie,
    });
    expect(started.statusCode).toBe(201);
    let run = started.json().run as RunState;
    let retried = false;
    for (let answers = 0; run.status === 'in_progress'; answers++) {
      if (answers >= MAX_ANSWERS) throw new Error(`${scenario.id}: no end after ${MAX_ANSWERS} answers`);
      const stepId = run.currentStep!.id;
      const answered = await t.request({
        method: 'POST',
        url: `/api/runs/${run.id}/answer`,
        body: { stepId, timeMs: 1000, ...answerFor(run.id, steps.get(stepId)!, quality(retried)) },
        cookie,
      });
      expect(answered.statusCode, answered.body).toBe(200);
      retried = answered.json().nextAction === 'retry';
      const moved = await t.request({ method: 'POST', url: `/api/runs/${run.id}/next`, body: {}, cookie });
      expect(moved.statusCode, moved.body).toBe(200);
      run = moved.json().run as RunState;
    }
    return run;
  }

  it('holds at least 12 scenarios, two or more of each of the six types', () => {
    expect(library.length).toBeGreaterThanOrEqual(12);
    for (const type of ['Ransomware', 'Data Breach', 'Hacktivism', 'Insider Threat', 'Phishing', 'Foreign Adversary']) {
      expect(library.filter((scenario) => scenario.type === type).length, type).toBeGreaterThanOrEqual(2);
    }
  });

  it(
    'lets every scenario be passed by answering everything right',
    async () => {
      for (const scenario of library) {
        const run = await play(scenario, () => 'right');
        expect(run.status, scenario.id).toBe('completed');
        // A written answer earns only its automatic share until an instructor grades it: it is awaiting review,
        // neither right nor missed yet.
        expect(run.incorrectCount, scenario.id).toBe(0);
        expect(run.verdicts.awaitingReview, scenario.id).toBe(run.pendingReviews);
        // Written answers wait for an instructor; everything else right scores at least the pass mark.
        expect(run.scorePercent, scenario.id).toBeGreaterThanOrEqual(run.pendingReviews > 0 ? 0 : 70);
        expect(run.result, scenario.id).toBe(run.pendingReviews > 0 ? 'Awaiting review' : 'Pass');
      }
    },
    WALK_TIMEOUT_MS,
  );

  it(
    'brings every scenario to its end when every first answer is wrong',
    async () => {
      for (const scenario of library) {
        const run = await play(scenario, (retried) => (retried ? 'right' : 'wrong'));
        expect(run.status, scenario.id).toBe('completed');
        expect(run.incorrectCount, scenario.id).toBeGreaterThan(0);
      }
    },
    WALK_TIMEOUT_MS,
  );
});
