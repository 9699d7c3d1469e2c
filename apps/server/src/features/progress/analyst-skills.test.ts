import type { RunState, ScenarioDefinition, ScenarioFile, Skills } from '@tradecraft/shared';
import { everyKindScenario } from '@tradecraft/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { answerFor } from '../runs/answers.fixture';
import { insertScenario } from '../runs/runs.fixtures';

// Credit per analyst skill and calibration in the skill map, the run report and the dashboard.
describe('analyst skills and calibration', () => {
  let t: TestApp;
  let trainee: { cookie: string; id: string; email: string };
  let adminCookie: string;
  let scenario: { id: string; definition: ScenarioDefinition };
  const runs: RunState[] = [];

  /** Plays the every-kind scenario: every step right except the estimate, which states `term`. */
  async function play(term: string): Promise<RunState> {
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
      const fields = step.kind === 'estimate' ? { term, confidence: 'high' } : answerFor(started.id, step, 'right');
      await t.request({
        method: 'POST',
        url: `/api/runs/${started.id}/answer`,
        body: { stepId: step.id, timeMs: 500, ...fields },
        cookie: trainee.cookie,
      });
      state = (
        await t.request({ method: 'POST', url: `/api/runs/${started.id}/next`, body: {}, cookie: trainee.cookie })
      ).json().run as RunState;
    }
    return state;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.userWithSession('student');
    trainee = { cookie: signedIn.cookie, id: signedIn.user.id, email: signedIn.user.email };
    adminCookie = (await t.userWithSession('admin')).cookie;
    scenario = await insertScenario(t.db, { file: everyKindScenario() as ScenarioFile });
    runs.push(await play('likely'), await play('unlikely'));
  });
  afterAll(() => t.close());

  it("gives the trainee's credit per skill and the calibration over every estimate", async () => {
    const skills = (
      await t.request({ method: 'GET', url: '/api/progress/skills', cookie: trainee.cookie })
    ).json() as Skills;
    expect(skills.analystSkills.find((skill) => skill.skill === 'estimation')).toEqual({
      skill: 'estimation',
      label: 'Estimation',
      attempts: 2,
      credit: 1,
      percent: 50,
    });
    expect(skills.analystSkills.find((skill) => skill.skill === 'attribution')).toMatchObject({
      attempts: 0,
      credit: 0,
    });
    expect(skills.analystSkills.find((skill) => skill.skill === 'dissemination')).toMatchObject({
      attempts: 2,
      credit: 0.6,
    });
    // (0.675 - 1)^2 and (0.325 - 1)^2, averaged: both statements came true.
    expect(skills.calibration.estimates).toBe(2);
    expect(skills.calibration.brierScore).toBeCloseTo(0.280625, 9);
    expect(skills.calibration.reliability).toEqual([
      { term: 'unlikely', label: 'Unlikely', probability: 0.325, count: 1, observedFrequency: 1 },
      { term: 'likely', label: 'Likely', probability: 0.675, count: 1, observedFrequency: 1 },
    ]);
  });

  it('gives an admin the same for one trainee, and refuses a trainee asking for someone else', async () => {
    const own = (
      await t.request({ method: 'GET', url: '/api/progress/skills', cookie: trainee.cookie })
    ).json() as Skills;
    const asAdmin = await t.request({
      method: 'GET',
      url: `/api/progress/skills?userId=${trainee.id}`,
      cookie: adminCookie,
    });
    expect(asAdmin.statusCode).toBe(200);
    expect((asAdmin.json() as Skills).analystSkills).toEqual(own.analystSkills);
    expect((asAdmin.json() as Skills).calibration).toEqual(own.calibration);
    const other = await t.userWithSession('student');
    expect(
      (await t.request({ method: 'GET', url: `/api/progress/skills?userId=${trainee.id}`, cookie: other.cookie }))
        .statusCode,
    ).toBe(403);
  });

  it('reports credit per skill and the key of every kind in the run report', async () => {
    const report = (
      await t.request({ method: 'GET', url: `/api/progress/runs/${runs[1]!.id}/report`, cookie: trainee.cookie })
    ).json();
    expect(report.run).toMatchObject({
      result: 'Awaiting review',
      pendingReviews: 1,
      scorePercent: runs[1]!.scorePercent,
    });
    expect(report.skills.find((skill: { skill: string }) => skill.skill === 'estimation')).toMatchObject({
      attempts: 1,
      credit: 0,
    });
    const byStep = new Map(report.decisions.map((decision: { stepId: string }) => [decision.stepId, decision]));
    expect(byStep.get('guess')).toMatchObject({
      kind: 'estimate',
      credit: 0,
      correctAnswer: 'Likely or Very likely (it turned out true)',
      result: { term: 'unlikely' },
    });
    expect(byStep.get('grade')).toMatchObject({ kind: 'grade-source', correctAnswer: 'C3', credit: 1 });
    expect(byStep.get('bluf')).toMatchObject({ kind: 'write', reviewStatus: 'pending' });
  });

  it('shows the same percent and result on the dashboard and in Training Progress as on the end screen', async () => {
    const progress = (
      await t.request({
        method: 'GET',
        url: `/api/progress/user/${encodeURIComponent(trainee.email)}`,
        cookie: trainee.cookie,
      })
    ).json();
    const training = (
      await t.request({
        method: 'GET',
        url: `/api/progress/all?search=${encodeURIComponent(trainee.email)}`,
        cookie: adminCookie,
      })
    ).json();
    for (const run of runs) {
      const shown = { scorePercent: run.scorePercent, result: run.result, scoreThousandths: run.scoreThousandths };
      expect(progress.runs.find((candidate: { id: string }) => candidate.id === run.id)).toMatchObject(shown);
      expect(training.items.find((candidate: { runId: string }) => candidate.runId === run.id)).toMatchObject({
        ...shown,
        skills: run.skillScores,
        rightAnswers: run.correctCount,
        missedSteps: run.incorrectCount,
      });
    }
    const csv = (
      await t.request({
        method: 'GET',
        url: `/api/progress/all.csv?search=${encodeURIComponent(trainee.email)}`,
        cookie: adminCookie,
      })
    ).body;
    expect(csv).toContain(
      `,${runs[0]!.scorePercent},${runs[0]!.correctCount},${runs[0]!.incorrectCount},Awaiting review,`,
    );
  });
});
