import {
  CASEFILE_MESSAGES,
  MAX_NOTES_CHARS,
  shownOrder,
  type CaseFile,
  type RunState,
  type ScenarioFile,
} from '@tradecraft/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helper';
import { FIXTURE_FEEDBACK, FIXTURE_SCENARIO, insertScenario } from '../runs/runs.fixtures';

// The fixture's pivot step carries marks, so the case file can be seen to keep them.
const SCENARIO: ScenarioFile = {
  ...FIXTURE_SCENARIO,
  steps: FIXTURE_SCENARIO.steps.map((step) =>
    step.id === 'pivot'
      ? {
          ...step,
          artifacts: (step.artifacts ?? []).map((artifact, index) =>
            index === 0 ? { ...artifact, tlp: 'AMBER' as const, admiralty: 'B2' } : artifact,
          ),
        }
      : step,
  ),
};

// What only the steps after the first show: none of it may leave the server before the trainee gets there.
const DETOUR_TEXT = 'relay.example/login';
const PIVOT_TEXT = 'Selling a relay kit.';

describe('the case file', () => {
  let t: TestApp;
  let trainee: { cookie: string; id: string };
  let other: { cookie: string };
  let admin: { cookie: string };
  let scenarioId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.userWithSession('student');
    trainee = { cookie: signedIn.cookie, id: signedIn.user.id };
    other = { cookie: (await t.userWithSession('student')).cookie };
    admin = { cookie: (await t.userWithSession('admin')).cookie };
    scenarioId = (await insertScenario(t.db, { file: SCENARIO })).id;
  });
  afterAll(() => t.close());

  async function newRun(): Promise<RunState> {
    const response = await t.request({
      method: 'POST',
      url: '/api/runs',
      body: { scenarioId, startOver: true },
      cookie: trainee.cookie,
    });
    expect(response.statusCode).toBe(201);
    return response.json().run as RunState;
  }

  /** Answers a choice step with the option at `fileIndex` in the file and moves on. */
  async function answerAndMove(runId: string, stepId: string, fileIndex: number): Promise<void> {
    const step = SCENARIO.steps.find((candidate) => candidate.id === stepId)!;
    const count = 'options' in step ? step.options.length : 0;
    const optionIndex = shownOrder(runId, stepId, count).indexOf(fileIndex);
    const answered = await t.request({
      method: 'POST',
      url: `/api/runs/${runId}/answer`,
      body: { stepId, optionIndex, timeMs: 1000 },
      cookie: trainee.cookie,
    });
    expect(answered.statusCode).toBe(200);
    const moved = await t.request({ method: 'POST', url: `/api/runs/${runId}/next`, body: {}, cookie: trainee.cookie });
    expect(moved.statusCode).toBe(200);
  }

  const caseFile = (runId: string, cookie = trainee.cookie) =>
    t.request({ method: 'GET', url: `/api/runs/${runId}/case-file`, cookie });
  const saveNotes = (runId: string, text: unknown, cookie = trainee.cookie) =>
    t.request({ method: 'PUT', url: `/api/runs/${runId}/notes`, body: { text }, cookie });
  const readNotes = (runId: string, cookie = trainee.cookie) =>
    t.request({ method: 'GET', url: `/api/runs/${runId}/notes`, cookie });
  const pin = (runId: string, body: Record<string, unknown>, cookie = trainee.cookie) =>
    t.request({ method: 'POST', url: `/api/runs/${runId}/pins`, body, cookie });

  async function readCaseFile(runId: string): Promise<CaseFile> {
    const response = await caseFile(runId);
    expect(response.statusCode).toBe(200);
    return response.json().caseFile as CaseFile;
  }

  it('holds only the first step at the start, and nothing of the steps not yet reached', async () => {
    const run = await newRun();
    const response = await caseFile(run.id);
    expect(response.statusCode).toBe(200);
    const file = response.json().caseFile as CaseFile;
    expect(file.steps.map((step) => [step.stepId, step.current])).toEqual([['triage', true]]);
    expect(file.steps[0]!.artifacts.map((artifact) => artifact.title)).toEqual(['Reported message']);
    expect(response.body).not.toContain(DETOUR_TEXT);
    expect(response.body).not.toContain(PIVOT_TEXT);
  });

  it('adds each step as the trainee reaches it on their own path, with its marks and no key', async () => {
    const run = await newRun();
    // The right answer on triage goes straight to pivot: the detour is never reached on this path.
    await answerAndMove(run.id, 'triage', 1);
    const response = await caseFile(run.id);
    const file = response.json().caseFile as CaseFile;
    expect(file.steps.map((step) => [step.stepId, step.order, step.current])).toEqual([
      ['triage', 1, false],
      ['pivot', 2, true],
    ]);
    expect(file.steps[1]!.artifacts[0]).toMatchObject({
      index: 0,
      title: 'Phishing feed entry',
      tlp: 'AMBER',
      admiralty: 'B2',
    });
    expect(response.body).toContain(PIVOT_TEXT);
    expect(response.body).not.toContain(DETOUR_TEXT);
    for (const feedback of FIXTURE_FEEDBACK) expect(response.body).not.toContain(feedback);
  });

  it("refuses someone else's run with 404, and an admin too", async () => {
    const run = await newRun();
    expect((await saveNotes(run.id, 'mine')).statusCode).toBe(200);
    for (const cookie of [other.cookie, admin.cookie]) {
      expect((await caseFile(run.id, cookie)).statusCode).toBe(404);
      expect((await readNotes(run.id, cookie)).statusCode).toBe(404);
      expect((await saveNotes(run.id, 'overwritten', cookie)).statusCode).toBe(404);
      expect((await pin(run.id, { stepId: 'triage', artifactIndex: 0 }, cookie)).statusCode).toBe(404);
    }
    expect((await readNotes(run.id)).json().notes.text).toBe('mine');
    expect((await readCaseFile(run.id)).pins).toEqual([]);
  });

  it('keeps the notes through End and Resume', async () => {
    const run = await newRun();
    const saved = await saveNotes(run.id, 'Reply-To goes to an outside mailbox.');
    expect(saved.statusCode).toBe(200);
    expect(saved.json().notes.updatedAt).toEqual(expect.any(String));
    const ended = await t.request({ method: 'POST', url: `/api/runs/${run.id}/end`, body: {}, cookie: trainee.cookie });
    expect(ended.statusCode).toBe(200);
    expect((await readNotes(run.id)).json().notes.text).toBe('Reply-To goes to an outside mailbox.');
    // Notes may still be added after End.
    expect((await saveNotes(run.id, 'Reply-To goes to an outside mailbox.\nCheck DMARC.')).statusCode).toBe(200);
    const resumed = await t.request({
      method: 'POST',
      url: `/api/runs/${run.id}/resume`,
      body: {},
      cookie: trainee.cookie,
    });
    expect(resumed.statusCode).toBe(200);
    expect((await readCaseFile(run.id)).notes.text).toBe('Reply-To goes to an outside mailbox.\nCheck DMARC.');
  });

  it('refuses notes over the limit with a clear message and keeps the notes as they were', async () => {
    const run = await newRun();
    expect((await saveNotes(run.id, 'first thoughts')).statusCode).toBe(200);
    const refused = await saveNotes(run.id, 'x'.repeat(MAX_NOTES_CHARS + 1));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain(CASEFILE_MESSAGES.notesTooLong);
    expect((await saveNotes(run.id, 42)).statusCode).toBe(400);
    // A body past the app's limit is refused before it is read, with a sentence too.
    const huge = await saveNotes(run.id, 'z'.repeat(2 * 1024 * 1024));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toEqual(expect.stringMatching(/\w+ \w+/));
    expect((await readNotes(run.id)).json().notes.text).toBe('first thoughts');
    // Exactly the limit is kept.
    expect((await saveNotes(run.id, 'y'.repeat(MAX_NOTES_CHARS))).statusCode).toBe(200);
  });

  it('pins a line of an artifact with the text read on the server, lists it and unpins it', async () => {
    const run = await newRun();
    const line = await pin(run.id, { stepId: 'triage', artifactIndex: 0, line: 3, quote: 'forged' });
    expect(line.statusCode).toBe(201);
    expect(line.json().pin).toMatchObject({
      stepId: 'triage',
      stepTitle: 'A clerk reports a voicemail email',
      artifactTitle: 'Reported message',
      line: 3,
      quote: 'Subject: 1 new voicemail',
    });
    const whole = await pin(run.id, { stepId: 'triage', artifactIndex: 0 });
    expect(whole.statusCode).toBe(201);
    expect(whole.json().pin).toMatchObject({ line: null, quote: 'Reported message' });

    const again = await pin(run.id, { stepId: 'triage', artifactIndex: 0, line: 3 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(CASEFILE_MESSAGES.alreadyPinned);
    expect((await readCaseFile(run.id)).pins.map((entry) => entry.quote)).toEqual([
      'Subject: 1 new voicemail',
      'Reported message',
    ]);

    const left = await t.request({
      method: 'DELETE',
      url: `/api/runs/${run.id}/pins/${line.json().pin.id}`,
      cookie: trainee.cookie,
    });
    expect(left.statusCode).toBe(200);
    expect(left.json().pins.map((entry: { quote: string }) => entry.quote)).toEqual(['Reported message']);
    const gone = await t.request({
      method: 'DELETE',
      url: `/api/runs/${run.id}/pins/${line.json().pin.id}`,
      cookie: trainee.cookie,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses to pin a step not reached or a line the artifact does not have, and writes nothing', async () => {
    const run = await newRun();
    const unreached = await pin(run.id, { stepId: 'pivot', artifactIndex: 1 });
    expect(unreached.statusCode).toBe(404);
    expect(unreached.json().error).toBe(CASEFILE_MESSAGES.notReached);
    expect((await pin(run.id, { stepId: 'triage', artifactIndex: 1 })).statusCode).toBe(404);
    const noLine = await pin(run.id, { stepId: 'triage', artifactIndex: 0, line: 40 });
    expect(noLine.statusCode).toBe(400);
    expect(noLine.json().error).toBe(CASEFILE_MESSAGES.lineNotFound);
    expect((await readCaseFile(run.id)).pins).toEqual([]);
  });

  it("shows the notes in the trainee's own after-action report and never in an admin's copy", async () => {
    const run = await newRun();
    await answerAndMove(run.id, 'triage', 1);
    expect((await saveNotes(run.id, 'Blocklist: relay[.]example')).statusCode).toBe(200);
    const own = await t.request({
      method: 'GET',
      url: `/api/progress/runs/${run.id}/report`,
      cookie: trainee.cookie,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().notebook).toBe('Blocklist: relay[.]example');
    const admins = await t.request({ method: 'GET', url: `/api/progress/runs/${run.id}/report`, cookie: admin.cookie });
    expect(admins.statusCode).toBe(200);
    expect(admins.json().notebook).toBeNull();
    expect(admins.body).not.toContain('Blocklist');
  });
});
