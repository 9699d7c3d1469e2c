import Papa from 'papaparse';
import { shownOrder, type RunState, type ScenarioFile } from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, xlsxRows, type TestApp } from '../../../test/helper';
import { insertScenario } from './runs.fixtures';

// One journey read on every surface (docs/scoring.md): a right answer after a hint, a wrong answer then a right
// one after Retry, and a partly right answer. The end state, the debrief, the after-action report, the dashboard,
// the skill map and Training Progress with its CSV and XLSX must all tell the same verdicts.

const VERDICT_SCENARIO: ScenarioFile = {
  name: 'Verdicts: one journey',
  type: 'Phishing',
  difficulty: 2,
  description: 'Three steps: a hint, a Retry and a second-best answer.',
  steps: [
    {
      id: 'hinted',
      title: 'Read the lure',
      description: 'What is the message?',
      hint: 'Look at the sender.',
      hint_cost: 0.1,
      mitre_attack: 'T1566.001',
      options: [
        { text: 'A phishing email with a macro', next_step: 'retried' },
        { text: 'A newsletter from a supplier', next_step: 'retried' },
      ],
      correct_option: 0,
    },
    {
      id: 'retried',
      title: 'Find the relay',
      description: 'What does the page do?',
      mitre_attack: 'T1557',
      options: [
        { text: 'It only shows a form', next_step: null },
        { text: 'It relays the real page', next_step: 'partial' },
      ],
      correct_option: 1,
    },
    {
      id: 'partial',
      title: 'Warn the staff',
      description: 'Who hears first?',
      mitre_attack: 'T1598',
      options: [
        { text: 'Every recipient of the lure' },
        { text: 'The whole company, later on', credit: 0.5 },
        { text: 'Nobody, it is handled now' },
      ],
      correct_option: 0,
    },
  ],
};

const optionCount = (stepId: string) => {
  const step = VERDICT_SCENARIO.steps.find((candidate) => candidate.id === stepId);
  return step && 'options' in step ? step.options.length : 0;
};

describe('one verdict per answer, the same on every surface', () => {
  let t: TestApp;
  let trainee: { cookie: string; email: string };
  let adminCookie: string;
  let run: RunState;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.userWithSession('student');
    trainee = { cookie: signedIn.cookie, email: signedIn.user.email };
    adminCookie = (await t.userWithSession('admin')).cookie;
    const { id: scenarioId } = await insertScenario(t.db, { file: VERDICT_SCENARIO });

    const post = async (url: string, body: object) => {
      const response = await t.request({ method: 'POST', url, body, cookie: trainee.cookie });
      expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
      return response.json();
    };
    const started = await post('/api/runs', { scenarioId });
    const id = (started.run as RunState).id;
    const choose = (stepId: string, fileIndex: number) =>
      post(`/api/runs/${id}/answer`, {
        stepId,
        optionIndex: shownOrder(id, stepId, optionCount(stepId)).indexOf(fileIndex),
        timeMs: 1000,
      });
    const next = () => post(`/api/runs/${id}/next`, {});

    await post(`/api/runs/${id}/hint`, { stepId: 'hinted' });
    const hinted = await choose('hinted', 0);
    expect(hinted.run.answer).toMatchObject({ verdict: 'right', hintUsed: true, credit: 0.9 });
    await next();
    const wrong = await choose('retried', 0);
    expect(wrong.run.answer).toMatchObject({ verdict: 'wrong', nextAction: 'retry' });
    await next();
    const retried = await choose('retried', 1);
    expect(retried.run.answer).toMatchObject({ verdict: 'after-retry', credit: 0 });
    await next();
    await choose('partial', 1);
    run = (await next()) as unknown as RunState;
    run = (await t.request({ method: 'GET', url: `/api/runs/${id}`, cookie: trainee.cookie })).json().run;
  });
  afterAll(() => t.close());

  const get = (url: string, cookie = trainee.cookie) => t.request({ method: 'GET', url, cookie });

  it('ends the run with one right first answer, two missed steps and the right after Retry counted apart', () => {
    expect(run).toMatchObject({
      status: 'completed',
      score: 1.4,
      percentBase: 3,
      correctCount: 1,
      incorrectCount: 2,
      verdicts: { right: 1, partlyRight: 1, wrong: 1, afterRetry: 1, awaitingReview: 0 },
    });
    expect(run.timeline.map((entry) => [entry.stepId, entry.verdict, entry.hintUsed])).toEqual([
      ['hinted', 'right', true],
      ['retried', 'wrong', false],
      ['retried', 'after-retry', false],
      ['partial', 'partly-right', false],
    ]);
    const byTechnique = Object.fromEntries(run.techniqueScores.map((technique) => [technique.id, technique]));
    expect(byTechnique['T1566.001']).toMatchObject({ count: 1, attempts: 1, credit: 0.9 });
    expect(byTechnique.T1557).toMatchObject({ count: 0, attempts: 1, credit: 0 });
    expect(byTechnique.T1598).toMatchObject({ count: 0, attempts: 1, credit: 0.5 });
  });

  it('debriefs the right answer after a hint as not missed, and offers practice on the missed steps only', () => {
    const techniques = Object.fromEntries(
      (run.debrief?.techniques ?? []).map((technique) => [technique.id, technique]),
    );
    expect(techniques['T1566.001']).toMatchObject({ right: 1, answered: 1, missed: [] });
    expect(techniques.T1557).toMatchObject({ right: 0, answered: 1, missed: [{ stepId: 'retried' }] });
    expect(techniques.T1598).toMatchObject({ right: 0, answered: 1, missed: [{ stepId: 'partial' }] });
    expect(run.debrief?.practisable).toEqual(['retried', 'partial']);
  });

  it('reports the same verdicts, counts and missed techniques in the after-action report', async () => {
    const report = (await get(`/api/progress/runs/${run.id}/report`)).json();
    expect(report.run).toMatchObject({
      correctCount: 1,
      incorrectCount: 2,
      verdicts: run.verdicts,
      score: 1.4,
      scorePercent: run.scorePercent,
    });
    expect(report.decisions.map((decision: { verdict: string }) => decision.verdict)).toEqual(
      run.timeline.map((entry) => entry.verdict),
    );
    const techniques = Object.fromEntries(
      report.techniques.map((technique: { id: string; right: number; wrong: number }) => [
        technique.id,
        [technique.right, technique.wrong],
      ]),
    );
    expect(techniques).toEqual({ 'T1566.001': [1, 0], T1557: [0, 1], T1598: [0, 1] });
  });

  it('draws the same verdicts in the dashboard timeline and leaves the hinted technique out of the misses', async () => {
    const progress = (await get(`/api/progress/user/${encodeURIComponent(trainee.email)}`)).json();
    const shown = progress.runs.find((candidate: { id: string }) => candidate.id === run.id);
    expect(shown.timeline.map((entry: { verdict: string }) => entry.verdict)).toEqual(
      run.timeline.map((entry) => entry.verdict),
    );
    expect(progress.summary).toMatchObject({ runsCompleted: 1, runsPassed: 0, runsAwaitingReview: 0 });
  });

  it('counts right first answers per technique on the skill map, never the right answer after Retry', async () => {
    const skills = (await get('/api/progress/skills')).json();
    const byId = Object.fromEntries(skills.techniques.map((technique: { id: string }) => [technique.id, technique]));
    expect(byId['T1566.001']).toMatchObject({ attempts: 1, correct: 1, credit: 0.9, sharePercent: 100 });
    expect(byId.T1557).toMatchObject({ attempts: 1, correct: 0, sharePercent: 0 });
    expect(byId.T1598).toMatchObject({ attempts: 1, correct: 0, credit: 0.5, sharePercent: 0 });
    expect(skills.totals).toMatchObject({ attempts: 3, correct: 1 });
  });

  it('shows the same right answers and missed steps in Training Progress and both its exports', async () => {
    const search = encodeURIComponent(trainee.email);
    const page = (await get(`/api/progress/all?search=${search}`, adminCookie)).json();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ runId: run.id, rightAnswers: 1, missedSteps: 2, score: 1.4 });

    const csv = (await get(`/api/progress/all.csv?search=${search}`, adminCookie)).body;
    const rows = Papa.parse<Record<string, string>>(csv.trim(), { header: true }).data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ Run: run.id, 'Right answers': '1', 'Missed steps': '2', Score: '1.4' });

    const xlsx = await xlsxRows(await get(`/api/progress/all.xlsx?search=${search}`, adminCookie));
    const header = xlsx[0]!;
    const row = xlsx[1]!;
    expect(row[header.indexOf('Right answers')]).toBe('1');
    expect(row[header.indexOf('Missed steps')]).toBe('2');
  });
});
