import type { RunState, ScenarioDefinition } from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { loadBuiltinScenarios } from '../scenarios/scenarios.loader';

/**
 * Every built-in scenario played through the real run engine: once answering everything right, once taking a
 * wrong answer at every step (and the right one after a Retry). Both must reach the end, so no scenario can
 * trap a trainee, and the right answers must pass.
 */
const MAX_ANSWERS = 200;

describe('the built-in library, played to the end', () => {
  let t: TestApp;
  let cookie: string;
  let library: ScenarioDefinition[];

  beforeAll(async () => {
    t = await createTestApp();
    const loaded = await loadBuiltinScenarios(t.db, undefined, { warn: () => undefined });
    expect(loaded.skipped).toEqual([]);
    const rows = await t.db.selectFrom('scenarios').select('definition').where('origin', '=', 'builtin').execute();
    library = rows.map((row) => JSON.parse(row.definition) as ScenarioDefinition);
    ({ cookie } = await t.userWithSession('student'));
  });
  afterAll(() => t.close());

  async function play(scenario: ScenarioDefinition, choose: (stepId: string, retried: boolean) => number): Promise<RunState> {
    const started = await t.request({ method: 'POST', url: '/api/runs', body: { scenarioId: scenario.id }, cookie });
    expect(started.statusCode).toBe(201);
    let run = started.json().run as RunState;
    let retried = false;
    for (let answers = 0; run.status === 'in_progress'; answers++) {
      if (answers >= MAX_ANSWERS) throw new Error(`${scenario.id}: no end after ${MAX_ANSWERS} answers`);
      const stepId = run.currentStep!.id;
      const answered = await t.request({
        method: 'POST',
        url: `/api/runs/${run.id}/answer`,
        body: { stepId, optionIndex: choose(stepId, retried), timeMs: 1000 },
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

  it('lets every scenario be passed by answering everything right', async () => {
    for (const scenario of library) {
      const correct = new Map(scenario.steps.map((step) => [step.id, step.correct_option]));
      const run = await play(scenario, (stepId) => correct.get(stepId)!);
      expect(run.status, scenario.id).toBe('completed');
      expect(run.incorrectCount, scenario.id).toBe(0);
      expect(run.scorePercent, scenario.id).toBeGreaterThanOrEqual(70);
    }
  });

  it('brings every scenario to its end when every first answer is wrong', async () => {
    for (const scenario of library) {
      const steps = new Map(scenario.steps.map((step) => [step.id, step]));
      const run = await play(scenario, (stepId, retried) => {
        const step = steps.get(stepId)!;
        return retried ? step.correct_option : step.correct_option === 0 ? 1 : 0;
      });
      expect(run.status, scenario.id).toBe('completed');
      expect(run.incorrectCount, scenario.id).toBeGreaterThan(0);
    }
  });
});
