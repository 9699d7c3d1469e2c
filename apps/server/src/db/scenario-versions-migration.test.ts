import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helper';
import { checkedScenario } from '../features/runs/runs.fixtures';
import * as scenarioVersions from './migrations/2026_11_25_0100_scenario_versions';
import * as programmesVersions from './migrations/2026_11_26_0100_programmes_versions_and_path_edits';

// Migration 2026_11_25_0100: a scenario and a run from before versions become version 1 (published, holding the
// scenario's definition) and a run pinned to it, still playable.
describe('the scenario versions migration', () => {
  let t: TestApp;
  let student: { cookie: string; id: string };
  const scenarioId = 'before-versions';
  const runId = randomUUID();
  const definition = { ...checkedScenario(), id: scenarioId };

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.userWithSession('student');
    student = { cookie: signedIn.cookie, id: signedIn.user.id };
    // Later migrations that index runs.version_id go first, as a rollback would take them.
    await programmesVersions.down(t.db as never);
    await scenarioVersions.down(t.db as never);
    const now = new Date().toISOString();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const old = t.db as any;
    await old
      .insertInto('scenarios')
      .values({
        id: scenarioId,
        name: definition.name,
        type: definition.type,
        difficulty: definition.difficulty,
        description: definition.description,
        definition: JSON.stringify(definition),
        step_count: definition.steps.length,
        origin: 'upload',
        content_hash: 'before',
        source_file_id: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
    await old
      .insertInto('runs')
      .values({
        id: runId,
        user_id: student.id,
        scenario_id: scenarioId,
        scenario_name: definition.name,
        step_count: definition.steps.length,
        current_step_id: definition.steps[0]!.id,
        current_answered: 0,
        last_option_index: null,
        score_thousandths: 0,
        percent_base: 1,
        played_steps: 0,
        best_path_steps: 1,
        pending_reviews: 0,
        hint_opened: 0,
        visit_submitted: 0,
        last_credit_thousandths: null,
        status: 'in_progress',
        started_at: now,
        finished_at: null,
        updated_at: now,
      })
      .execute();
    await scenarioVersions.up(t.db as never);
    await programmesVersions.up(t.db as never);
  });
  afterAll(() => t.close());

  it('makes every scenario version 1, published, and pins every run to it', async () => {
    const version = await t.db
      .selectFrom('scenario_versions')
      .selectAll()
      .where('scenario_id', '=', scenarioId)
      .executeTakeFirstOrThrow();
    expect(version).toMatchObject({ id: `${scenarioId}@v1`, number: 1, state: 'published', revision: 1 });
    expect(JSON.parse(version.definition)).toEqual(definition);
    const scenario = await t.db
      .selectFrom('scenarios')
      .select(['current_version_id', 'draft_version_id'])
      .where('id', '=', scenarioId)
      .executeTakeFirstOrThrow();
    expect(scenario).toEqual({ current_version_id: `${scenarioId}@v1`, draft_version_id: null });
    const run = await t.db.selectFrom('runs').select('version_id').where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run.version_id).toBe(`${scenarioId}@v1`);
  });

  it('keeps the old run playable and the scenario in the trainee list', async () => {
    const read = await t.request({ method: 'GET', url: `/api/runs/${runId}`, cookie: student.cookie });
    expect(read.json().run.currentStep.id).toBe(definition.steps[0]!.id);
    const list = await t.request({ method: 'GET', url: '/api/sim/list', cookie: student.cookie });
    expect(list.json().scenarios.map((scenario: { id: string }) => scenario.id)).toContain(scenarioId);
  });
});
