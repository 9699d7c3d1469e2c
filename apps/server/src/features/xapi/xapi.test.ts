import type { RunState, ScenarioStep, XapiStatusResponse } from '@tradecraft/shared';
import validateStatement from 'xapi-validation';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLrs, type TestLrs } from '../../../../../test-support/xapi-lrs';
import { buildApp } from '../../app';
import { ConfigError, loadConfig } from '../../config';
import { createTestApp, ORIGIN, type TestApp } from '../../../test/helper';
import { answerFor } from '../runs/answers.fixture';
import { insertScenario } from '../runs/runs.fixtures';
import { insertStatements, listRunStatements } from './xapi.repository';

// xAPI against Learning Locker's own statement service (test-support/xapi-lrs.ts), started on 127.0.0.1.

const HOUR = 60 * 60_000;
const later = (ms = HOUR) => new Date(Date.now() + ms);
const verbOf = (statement: Record<string, unknown>) =>
  String((statement.verb as { id: string }).id)
    .split('/')
    .pop();

let lrs: TestLrs;
let t: TestApp | undefined;

beforeAll(async () => {
  lrs = await createLrs();
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  await lrs.stop();
});

const xapiEnv = (extra: Record<string, string> = {}) => ({
  XAPI_ENDPOINT: lrs.endpoint,
  XAPI_USERNAME: lrs.username,
  XAPI_PASSWORD: lrs.password,
  ...extra,
});

/** A trainee playing the run engine's fixture scenario through the API. */
async function trainee(app: TestApp) {
  const { user, cookie } = await app.userWithSession('student');
  const scenario = await insertScenario(app.db);
  const stepOf = (id: string) => scenario.definition.steps.find((step) => step.id === id) as ScenarioStep;
  const post = async (url: string, body: unknown = {}) => {
    const response = await app.request({ method: 'POST', url, body, cookie });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { run: RunState };
  };
  return {
    user,
    cookie,
    start: async () => (await post('/api/runs', { scenarioId: scenario.id })).run,
    answer: (run: RunState, stepId: string, quality: 'right' | 'wrong' = 'right') =>
      post(`/api/runs/${run.id}/answer`, { stepId, timeMs: 4250, ...answerFor(run.id, stepOf(stepId), quality) }),
    next: async (run: RunState) => (await post(`/api/runs/${run.id}/next`)).run,
    end: async (run: RunState) => (await post(`/api/runs/${run.id}/end`)).run,
    resume: async (run: RunState) => (await post(`/api/runs/${run.id}/resume`)).run,
  };
}

async function status(app: TestApp, cookie: string): Promise<XapiStatusResponse> {
  const response = await app.request({ method: 'GET', url: '/api/xapi/status', cookie });
  expect(response.statusCode).toBe(200);
  return response.json() as XapiStatusResponse;
}

describe('xAPI statements to a Learning Record Store', () => {
  it('keeps every statement of a run played while the LRS is down for part of it, and delivers them all', async () => {
    t = await createTestApp(xapiEnv());
    const admin = await t.userWithSession('admin');
    const player = await trainee(t);

    // The LRS is down: the run starts and the first step is answered all the same.
    let run = await player.start();
    await player.answer(run, 'triage');
    run = await player.next(run);
    expect(await t.app.xapiDelivery!.deliverDue()).toBe(0);
    const waiting = await status(t, admin.cookie);
    expect(waiting).toMatchObject({ enabled: true, endpoint: lrs.endpoint, backlog: 3, rejected: 0 });
    expect(waiting.lastError?.message).toBe('The LRS could not be reached (ECONNREFUSED).');
    run = await player.end(run);

    // It comes back; the trainee resumes and finishes.
    await lrs.start();
    run = await player.resume(run);
    await player.answer(run, 'pivot');
    run = await player.next(run);
    await player.answer(run, 'report');
    run = await player.next(run);
    expect(run.status).toBe('completed');
    // The first statements wait out their backoff; an hour later everything has gone.
    await t.app.xapiDelivery!.deliverDue(later());
    const delivered = await status(t, admin.cookie);
    expect(delivered).toMatchObject({ backlog: 0, rejected: 0, oldestWaitingSince: null });
    expect(delivered.lastDeliveredAt).not.toBeNull();

    const stored = await lrs.statementsOf(run.id);
    expect(stored.map(verbOf)).toEqual([
      'launched',
      'initialized',
      'answered',
      'terminated',
      'resumed',
      'answered',
      'answered',
      'completed',
      'passed',
    ]);
    const outbox = await listRunStatements(t.db, run.id);
    expect(outbox.every((row) => row.sent_at !== null)).toBe(true);
    for (const statement of stored) expect(validateStatement(statement)).toEqual([]);
  });

  it('describes the trainee, the run, each step and its result as the product decided them', async () => {
    t = await createTestApp(xapiEnv());
    await lrs.start();
    const player = await trainee(t);
    let run = await player.start();
    await player.answer(run, 'triage', 'wrong');
    await t.app.xapiDelivery!.deliverDue();

    const [launched, , answered] = await lrs.statementsOf(run.id);
    expect(launched!.actor).toMatchObject({
      mbox: `mailto:${player.user.email}`,
      name: `${player.user.first_name} ${player.user.last_name}`,
    });
    expect(launched!.object).toMatchObject({
      id: `${ORIGIN}/xapi/activities/scenarios/${run.scenarioId}`,
      definition: { name: { 'en-US': 'Fixture: voicemail lure' } },
    });
    expect(answered!.context).toMatchObject({
      registration: run.id,
      contextActivities: { parent: [{ id: `${ORIGIN}/xapi/activities/scenarios/${run.scenarioId}` }] },
    });
    expect(answered!.object).toMatchObject({
      id: `${ORIGIN}/xapi/activities/scenarios/${run.scenarioId}/steps/triage`,
      definition: {
        extensions: {
          [`${ORIGIN}/xapi/extensions/attack-technique`]: 'T1566.001',
          [`${ORIGIN}/xapi/extensions/analyst-skill`]: 'response',
        },
      },
    });
    // A wrong first answer: no success, no credit, the option chosen in words, the time the browser measured.
    expect(answered!.result).toMatchObject({
      success: false,
      score: { scaled: 0, raw: 0, min: 0, max: 1 },
      response: 'Open the attachment on your own workstation',
      duration: 'PT4.25S',
    });
    run = await player.end(run);
  });

  it('names the trainee by their account on this site, without email or name, when XAPI_ACTOR is account', async () => {
    t = await createTestApp(xapiEnv({ XAPI_ACTOR: 'account' }));
    await lrs.start();
    const player = await trainee(t);
    const run = await player.start();
    await t.app.xapiDelivery!.deliverDue();
    const [launched] = await lrs.statementsOf(run.id);
    expect(launched!.actor).toEqual({ objectType: 'Agent', account: { homePage: ORIGIN, name: player.user.id } });
  });

  it('keeps the outbox through a restart: a new server process sends what the old one could not', async () => {
    t = await createTestApp(xapiEnv());
    const player = await trainee(t);
    const run = await player.start();
    expect(await t.app.xapiDelivery!.deliverDue()).toBe(0);
    await t.app.close();

    await lrs.start();
    const restarted = await buildApp({ config: t.config, db: t.db, dialect: t.dialect });
    try {
      await restarted.xapiDelivery!.deliverDue(later());
    } finally {
      await restarted.close();
    }
    expect((await lrs.statementsOf(run.id)).map(verbOf)).toEqual(['launched', 'initialized']);
  });

  it('sets aside a statement the LRS refuses and still delivers the rest of its batch', async () => {
    t = await createTestApp(xapiEnv());
    const admin = await t.userWithSession('admin');
    await lrs.start();
    const player = await trainee(t);
    const run = await player.start();
    await insertStatements(t.db, [
      {
        id: '5f0c1a9e-0000-4000-8000-000000000001',
        run_id: run.id,
        seq: 9,
        statement: JSON.stringify({ id: '5f0c1a9e-0000-4000-8000-000000000001', verb: { id: 'not an IRI' } }),
        created_at: new Date().toISOString(),
      },
    ]);
    await t.app.xapiDelivery!.deliverDue();
    const figures = await status(t, admin.cookie);
    expect(figures).toMatchObject({ backlog: 0, rejected: 1 });
    expect(figures.lastError?.message).toMatch(/^The LRS answered 400/);
    expect((await lrs.statementsOf(run.id)).map(verbOf)).toEqual(['launched', 'initialized']);
  });

  it('writes no statement and says so on the dashboard when XAPI_ENDPOINT is not set', async () => {
    t = await createTestApp();
    const admin = await t.userWithSession('admin');
    const player = await trainee(t);
    const run = await player.start();
    await player.answer(run, 'triage');
    expect(t.app.xapiDelivery).toBeNull();
    expect(await listRunStatements(t.db, run.id)).toEqual([]);
    expect(await status(t, admin.cookie)).toEqual({
      enabled: false,
      endpoint: null,
      backlog: 0,
      rejected: 0,
      oldestWaitingSince: null,
      lastDeliveredAt: null,
      lastError: null,
    });
  });

  it('shows the delivery status to admins only', async () => {
    t = await createTestApp(xapiEnv());
    const { cookie } = await t.userWithSession('student');
    const response = await t.request({ method: 'GET', url: '/api/xapi/status', cookie });
    expect(response.statusCode).toBe(403);
  });

  it('refuses to start with XAPI_ENDPOINT but no PUBLIC_ORIGIN for the activity ids', () => {
    expect(() => loadConfig({ XAPI_ENDPOINT: 'http://127.0.0.1:9/xAPI' })).toThrow(ConfigError);
    expect(() => loadConfig({ XAPI_ENDPOINT: 'http://127.0.0.1:9/xAPI' })).toThrow(/PUBLIC_ORIGIN/);
  });
});

afterAll(async () => {
  await lrs.stop();
});
