import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { insertScenario } from '../features/runs/runs.fixtures';
import * as feedbackMarks from './migrations/2026_11_23_0601_feedback_marks_as_words';

// Migration 2026_11_23_0601: feedback stored with an emoji mark in front keeps its words and loses the mark.
describe('the feedback marks migration', () => {
  let t: TestApp;
  let runId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const student = await t.userWithSession('student');
    const scenarioId = (await insertScenario(t.db)).id;
    const started = await t.request({ method: 'POST', url: '/api/runs', body: { scenarioId }, cookie: student.cookie });
    runId = started.json().run.id;
    const stepId: string = started.json().run.currentStep.id;
    await t.request({
      method: 'POST',
      url: `/api/runs/${runId}/answer`,
      body: { stepId, optionIndex: 0, timeMs: 1000 },
      cookie: student.cookie,
    });
    // The recorded decision, stored again as the three headlines the server used to write.
    const { id: _id, ...recorded } = await t.db
      .selectFrom('run_decisions')
      .selectAll()
      .where('run_id', '=', runId)
      .executeTakeFirstOrThrow();
    await t.db.deleteFrom('run_decisions').where('run_id', '=', runId).execute();
    const stored = [
      '✅ Correct!\nScoping comes first.',
      '❌ Incorrect. The correct answer was: "Purge and scope"',
      '◐ Partly right: 0.5 credit.',
    ];
    for (const [index, feedback] of stored.entries())
      await t.db
        .insertInto('run_decisions')
        .values({ ...recorded, seq: index + 1, feedback })
        .execute();
    await feedbackMarks.up(t.db as never);
  });
  afterAll(() => t.close());

  it('keeps the words of every stored headline without the emoji mark in front', async () => {
    const rows = await t.db
      .selectFrom('run_decisions')
      .select('feedback')
      .where('run_id', '=', runId)
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => row.feedback)).toEqual([
      'Correct!\nScoping comes first.',
      'Incorrect. The correct answer was: "Purge and scope"',
      'Partly right: 0.5 credit.',
    ]);
  });
});
