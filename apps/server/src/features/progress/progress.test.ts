import type { RunReport, RunTimeline, UserProgress } from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import type { User } from '../../db/schema';
import { insertRun, insertScenario, optionText, type FixtureScenario } from './progress.fixtures';
import { REPORT_NOTES } from './run-report.service';

describe('progress: dashboard, timeline and after-action report', () => {
  let t: TestApp;
  let student: { user: User; cookie: string };
  let other: { user: User; cookie: string };
  let admin: { user: User; cookie: string };
  let phishing: FixtureScenario;
  let ransomware: FixtureScenario;
  let deleted: FixtureScenario;
  const runIds = { failed: '', ended: '', passed: '', inProgress: '', onDeleted: '', others: '' };

  const get = (url: string, cookie?: string) => t.request({ method: 'GET', url, ...(cookie ? { cookie } : {}) });
  const progressOf = async (email: string, cookie = student.cookie) => {
    const response = await get(`/api/progress/user/${encodeURIComponent(email)}`, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as UserProgress;
  };

  beforeAll(async () => {
    t = await createTestApp();
    student = await t.userWithSession('student');
    other = await t.userWithSession('student');
    admin = await t.userWithSession('admin');
    phishing = await insertScenario(t.db, {
      name: 'Invoice phish',
      difficulty: 2,
      sources: [{ title: 'CISA advisory', url: 'https://www.cisa.gov/example' }],
      steps: [
        { id: 'triage', technique: 'T1566.001', options: ['Scope the recipients', 'Open it', 'Ignore it'] },
        { id: 'relay', technique: 'T1557', options: ['A fake page', 'An AiTM relay'], correct: 1 },
        { id: 'close' },
      ],
    });
    ransomware = await insertScenario(t.db, { name: 'Hospital ransomware', type: 'Ransomware', difficulty: 4 });
    deleted = await insertScenario(t.db, {
      name: 'Retired scenario',
      steps: [{ id: 'one' }, { id: 'two' }],
      deleted: true,
    });

    // Oldest first: a failed completed run, an ended run, a passed run, one in progress, one on a deleted scenario.
    runIds.failed = (
      await insertRun(t.db, {
        user: student.user,
        scenario: phishing,
        stepCount: 3,
        startedMinute: 0,
        durationSeconds: 125,
        decisions: [
          {
            stepId: 'triage',
            correct: false,
            technique: 'T1566.001',
            optionIndex: 2,
            feedback: 'Incorrect. The correct answer was: "Scope the recipients"',
          },
          { stepId: 'relay', correct: false, technique: 'T1557', optionIndex: 0 },
          { stepId: 'close', correct: true },
        ],
      })
    ).id;
    runIds.ended = (
      await insertRun(t.db, {
        user: student.user,
        scenario: ransomware,
        status: 'ended',
        startedMinute: 10,
        decisions: [{ stepId: 'one', correct: true }],
      })
    ).id;
    runIds.passed = (
      await insertRun(t.db, {
        user: student.user,
        scenario: phishing,
        stepCount: 3,
        startedMinute: 20,
        decisions: [
          { stepId: 'triage', correct: true, technique: 'T1566.001' },
          { stepId: 'relay', correct: true, technique: 'T1557', optionIndex: 1 },
          { stepId: 'close', correct: false },
        ],
      })
    ).id;
    runIds.inProgress = (
      await insertRun(t.db, {
        user: student.user,
        scenario: ransomware,
        status: 'in_progress',
        startedMinute: 30,
        decisions: [{ stepId: 'one', correct: false }],
      })
    ).id;
    runIds.onDeleted = (
      await insertRun(t.db, {
        user: student.user,
        scenario: deleted,
        status: 'in_progress',
        startedMinute: 40,
        scenarioName: '',
      })
    ).id;
    runIds.others = (
      await insertRun(t.db, {
        user: other.user,
        scenario: phishing,
        stepCount: 3,
        decisions: [{ stepId: 'triage', correct: true }],
      })
    ).id;
  });
  afterAll(() => t.close());

  describe('GET /api/progress/user/:email', () => {
    it("returns the trainee's runs newest first with score %, result, status and duration", async () => {
      const progress = await progressOf(student.user.email);
      expect(progress.runs.map((run) => run.id)).toEqual([
        runIds.onDeleted,
        runIds.inProgress,
        runIds.passed,
        runIds.ended,
        runIds.failed,
      ]);
      const byId = Object.fromEntries(progress.runs.map((run) => [run.id, run]));
      expect(byId[runIds.passed]).toMatchObject({
        scenarioId: phishing.id,
        scenarioName: 'Invoice phish',
        stepCount: 3,
        score: 2,
        scorePercent: 67,
        result: 'Fail',
        status: 'completed',
        completed: true,
        durationSeconds: 90,
        resumable: false,
      });
      expect(byId[runIds.failed]).toMatchObject({ score: 1, scorePercent: 33, result: 'Fail', durationSeconds: 125 });
      expect(byId[runIds.ended]).toMatchObject({ status: 'ended', completed: false, result: '-', scorePercent: 50 });
      expect(byId[runIds.inProgress]).toMatchObject({
        completed: false,
        result: '-',
        durationSeconds: null,
        resumable: true,
      });
    });

    it('falls back to the scenario id for a nameless run and never offers to resume a deleted scenario', async () => {
      const run = (await progressOf(student.user.email)).runs.find((candidate) => candidate.id === runIds.onDeleted)!;
      expect(run).toMatchObject({
        scenarioName: deleted.id,
        scenarioAvailable: false,
        resumable: false,
        status: 'in_progress',
      });
    });

    it("carries every run's own decision timeline in order (fetched for all runs at once)", async () => {
      const progress = await progressOf(student.user.email);
      const timelines = Object.fromEntries(progress.runs.map((run) => [run.id, run.timeline]));
      expect(timelines[runIds.failed]!.map((entry) => [entry.seq, entry.stepId, entry.correct])).toEqual([
        [1, 'triage', false],
        [2, 'relay', false],
        [3, 'close', true],
      ]);
      expect(timelines[runIds.failed]![0]).toMatchObject({
        decision: optionText('triage', 2),
        feedback: 'Incorrect. The correct answer was: "Scope the recipients"',
        technique: { id: 'T1566.001', name: 'Phishing: Spearphishing Attachment' },
        timeMs: 1000,
      });
      expect(timelines[runIds.passed]!.map((entry) => entry.stepId)).toEqual(['triage', 'relay', 'close']);
      expect(timelines[runIds.ended]).toHaveLength(1);
      expect(timelines[runIds.onDeleted]).toEqual([]);
      // No decision of another trainee's run leaks into this user's timelines.
      expect(progress.runs.flatMap((run) => run.timeline)).toHaveLength(3 + 1 + 3 + 1);
    });

    it('sums up completed runs, pass rate and average score', async () => {
      const { summary } = await progressOf(student.user.email);
      expect(summary).toEqual({
        runsTotal: 5,
        runsCompleted: 2,
        runsPassed: 0,
        runsAwaitingReview: 0,
        passRatePercent: 0,
        averageScorePercent: 50,
      });
    });

    it('recommends up to three scenarios not yet completed, first those practising missed techniques', async () => {
      const practice = await insertScenario(t.db, {
        name: 'AiTM practice',
        difficulty: 5,
        steps: [{ id: 'a', technique: 'T1557' }, { id: 'b' }],
      });
      const atPlatformLevel = await insertScenario(t.db, { name: 'Level three', difficulty: 3 });
      const { recommendations, platformDifficulty } = await progressOf(student.user.email);
      expect(platformDifficulty).toBe(3);
      expect(recommendations.length).toBeLessThanOrEqual(3);
      expect(recommendations[0]).toMatchObject({ id: practice.id, practises: [{ id: 'T1557' }] });
      expect(recommendations[0]!.reason).toMatch(/T1557/);
      expect(recommendations[1]).toMatchObject({ id: atPlatformLevel.id });
      const ids = recommendations.map((scenario) => scenario.id);
      expect(ids).not.toContain(phishing.id); // completed
      expect(ids).not.toContain(deleted.id); // not in the library
    });

    it('follows the platform difficulty saved by the Difficulty Adjuster', async () => {
      const now = new Date().toISOString();
      await t.db.insertInto('settings').values({ key: 'difficulty', value: '4', updated_at: now }).execute();
      try {
        const { recommendations, platformDifficulty } = await progressOf(other.user.email, other.cookie);
        expect(platformDifficulty).toBe(4);
        expect(recommendations[0]).toMatchObject({ id: ransomware.id, difficulty: 4 });
      } finally {
        await t.db.deleteFrom('settings').where('key', '=', 'difficulty').execute();
      }
    });

    it("refuses a trainee another trainee's progress (403) and anyone signed out (401)", async () => {
      expect((await get(`/api/progress/user/${encodeURIComponent(other.user.email)}`, student.cookie)).statusCode).toBe(
        403,
      );
      expect((await get(`/api/progress/user/${encodeURIComponent(student.user.email)}`)).statusCode).toBe(401);
    });

    it("lets an admin read anyone's progress, ignoring the email's case, and says when there is no such user", async () => {
      const progress = await progressOf(student.user.email.toUpperCase(), admin.cookie);
      expect(progress.user.id).toBe(student.user.id);
      expect(progress.runs).toHaveLength(5);
      expect((await get('/api/progress/user/nobody%40example.com', admin.cookie)).statusCode).toBe(404);
    });

    it('shows an empty dashboard to a trainee with no runs', async () => {
      const fresh = await t.userWithSession('student');
      const progress = await progressOf(fresh.user.email, fresh.cookie);
      expect(progress.runs).toEqual([]);
      expect(progress.summary).toEqual({
        runsTotal: 0,
        runsCompleted: 0,
        runsPassed: 0,
        runsAwaitingReview: 0,
        passRatePercent: null,
        averageScorePercent: null,
      });
    });
  });

  describe('GET /api/progress/timeline/:runId', () => {
    it('gives the owner and admins the decisions in order, and 404 to anyone else', async () => {
      const own = await get(`/api/progress/timeline/${runIds.passed}`, student.cookie);
      expect(own.statusCode).toBe(200);
      expect((own.json() as RunTimeline).timeline.map((entry) => entry.stepId)).toEqual(['triage', 'relay', 'close']);
      expect((await get(`/api/progress/timeline/${runIds.passed}`, admin.cookie)).statusCode).toBe(200);
      expect((await get(`/api/progress/timeline/${runIds.passed}`, other.cookie)).statusCode).toBe(404);
      expect((await get('/api/progress/timeline/no-such-run', admin.cookie)).statusCode).toBe(404);
    });
  });

  describe('GET /api/progress/runs/:runId/report', () => {
    const reportOf = async (runId: string, cookie = student.cookie) => {
      const response = await get(`/api/progress/runs/${runId}/report`, cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as RunReport;
    };

    it('reports the scenario, its sources, result, score and duration', async () => {
      const report = await reportOf(runIds.failed);
      expect(report.run).toMatchObject({
        scenarioName: 'Invoice phish',
        score: 1,
        stepCount: 3,
        scorePercent: 33,
        result: 'Fail',
        statusLabel: 'Completed',
        durationSeconds: 125,
        correctCount: 1,
        incorrectCount: 2,
      });
      expect(report.trainee.email).toBe(student.user.email);
      expect(report.scenario).toMatchObject({
        known: true,
        deleted: false,
        type: 'Phishing',
        difficulty: 2,
        sources: [{ title: 'CISA advisory', url: 'https://www.cisa.gov/example' }],
        note: null,
      });
    });

    it('lists every decision in order with the option chosen, whether it was right and the correct answer', async () => {
      const { decisions } = await reportOf(runIds.failed);
      expect(
        decisions.map((decision) => [decision.stepId, decision.decision, decision.correct, decision.correctAnswer]),
      ).toEqual([
        ['triage', optionText('triage', 2), false, 'Scope the recipients'],
        ['relay', optionText('relay', 0), false, 'An AiTM relay'],
        ['close', optionText('close', 0), true, optionText('close', 0)],
      ]);
      expect(decisions[0]).toMatchObject({
        stepTitle: 'Title of triage',
        optionIndex: 2,
        timeMs: 1000,
        technique: { id: 'T1566.001' },
      });
    });

    it('counts the techniques met, right and wrong, and suggests scenarios covering the ones missed', async () => {
      const report = await reportOf(runIds.failed);
      expect(report.techniques).toEqual([
        {
          id: 'T1557',
          name: 'Adversary-in-the-Middle',
          url: 'https://attack.mitre.org/techniques/T1557/',
          right: 0,
          wrong: 1,
        },
        {
          id: 'T1566.001',
          name: 'Phishing: Spearphishing Attachment',
          url: 'https://attack.mitre.org/techniques/T1566/001/',
          right: 0,
          wrong: 1,
        },
      ]);
      expect(report.practiseNext.length).toBeGreaterThan(0);
      expect(
        report.practiseNext.every((scenario) => scenario.practises.length > 0 && scenario.id !== phishing.id),
      ).toBe(true);
      expect(report.practiseNext[0]!.practises.map((technique) => technique.id)).toContain('T1557');
    });

    it('says the correct answer is unknown when a step is no longer in the scenario', async () => {
      const changed = await insertRun(t.db, {
        user: student.user,
        scenario: phishing,
        stepCount: 3,
        startedMinute: 50,
        decisions: [{ stepId: 'gone-step', correct: false }],
      });
      const report = await reportOf(changed.id);
      expect(report.decisions[0]).toMatchObject({ stepTitle: null, correctAnswer: null });
      expect(report.scenario.note).toBe(REPORT_NOTES.changedSteps);
    });

    it('notes a scenario deleted from the library', async () => {
      const report = await reportOf(runIds.onDeleted);
      expect(report.scenario).toMatchObject({ deleted: true, note: REPORT_NOTES.deleted });
      expect(report.run).toMatchObject({
        scenarioName: deleted.id,
        statusLabel: 'Incomplete',
        result: '-',
        durationSeconds: null,
      });
    });

    it("is the owner's and the admins' only: 404 for another trainee and for an unknown run", async () => {
      expect((await reportOf(runIds.passed, admin.cookie)).trainee.id).toBe(student.user.id);
      expect((await get(`/api/progress/runs/${runIds.passed}/report`, other.cookie)).statusCode).toBe(404);
      expect((await get(`/api/progress/runs/${runIds.others}/report`, student.cookie)).statusCode).toBe(404);
      expect((await get('/api/progress/runs/unknown/report', admin.cookie)).statusCode).toBe(404);
      expect((await get(`/api/progress/runs/${runIds.passed}/report`)).statusCode).toBe(401);
    });
  });
});
