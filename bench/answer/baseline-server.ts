// The baseline of the answer benchmark: the same database work as the product's answer path with no framework
// at all. Bare node:http, the same drivers (better-sqlite3 / pg, no query builder), the same SQL, the answer
// in one transaction; the session is looked up per request as the product does. It answers only what the
// load generator needs. Started by bench/answer/answer.bench.ts; never part of the product.
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import SQLite from '../../apps/server/src/db/sqlite-driver';
import pg from 'pg';
import { judgeAnswer, resolveNextStep, scoreAnswer, type ScenarioDefinition, type ScenarioStep } from '@tradecraft/shared';
import { findTechnique } from '@tradecraft/shared/attack';

const port = Number(process.env.PORT ?? 4901);
const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = process.env.DATA_DIR ?? './data';

interface RunRow {
  id: string;
  user_id: string;
  scenario_id: string;
  current_step_id: string;
  current_answered: number;
  last_option_index: number | null;
  score: number;
  technique_counts: string;
  status: string;
}
interface ScenarioRow {
  id: string;
  name: string;
  definition: string;
  deleted_at: string | null;
}
interface SessionUser {
  id: string;
  role: string;
  disabled: number;
  last_seen_at: string;
  expires_at: string;
}
interface Decision {
  run_id: string;
  step_id: string;
  option_index: number;
  correct: number;
  decision: string;
  feedback: string;
  technique: string | null;
  time_ms: number;
  at: string;
}

/** The statements the answer path runs, for one driver. */
interface Store {
  sessionUser(sessionId: string): Promise<SessionUser | undefined>;
  touchSession(sessionId: string, at: string): Promise<void>;
  run(id: string): Promise<RunRow | undefined>;
  scenario(id: string): Promise<ScenarioRow | undefined>;
  insertRun(run: Record<string, unknown>): Promise<void>;
  /** claim, re-read, score, next seq, insert decision: one transaction; false when the claim lost. */
  answer(claim: { runId: string; stepId: string; optionIndex: number; at: string }, decide: (fresh: RunRow) => { score: number; techniqueCounts: string; decision: Omit<Decision, 'at' | 'run_id'> }): Promise<{ seq: number } | null>;
  move(move: { runId: string; fromStepId: string; optionIndex: number; to: ReturnType<typeof resolveNextStep>; at: string }): Promise<boolean>;
}

const SESSION_SQL =
  'select users.id, users.role, users.disabled, sessions.last_seen_at, sessions.expires_at from sessions inner join users on users.id = sessions.user_id where sessions.id = ?';
const CLAIM_SQL =
  "update runs set current_answered = 1, last_option_index = ?, updated_at = ? where id = ? and status = 'in_progress' and current_step_id = ? and current_answered = 0";
const SCORE_SQL = 'update runs set score = ?, technique_counts = ?, updated_at = ? where id = ?';
const SEQ_SQL = 'select max(seq) as last from run_decisions where run_id = ?';
const DECISION_SQL =
  'insert into run_decisions (run_id, seq, step_id, option_index, correct, decision, feedback, technique, time_ms, at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const RUN_INSERT_SQL =
  'insert into runs (id, user_id, scenario_id, scenario_name, step_count, current_step_id, current_answered, last_option_index, score, technique_counts, status, started_at, finished_at, updated_at) values (?, ?, ?, ?, ?, ?, 0, null, 0, ?, ?, ?, null, ?)';
const MOVE_STEP_SQL =
  "update runs set current_step_id = ?, current_answered = 0, last_option_index = null, updated_at = ? where id = ? and status = 'in_progress' and current_step_id = ? and current_answered = 1 and last_option_index = ?";
const MOVE_FINISH_SQL =
  "update runs set status = 'completed', finished_at = ?, updated_at = ? where id = ? and status = 'in_progress' and current_step_id = ? and current_answered = 1 and last_option_index = ?";

function sqliteStore(): Store {
  const db = new SQLite(path.join(dataDir, 'tradecraft.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const session = db.prepare(SESSION_SQL);
  const touch = db.prepare('update sessions set last_seen_at = ? where id = ?');
  const run = db.prepare('select * from runs where id = ?');
  const scenario = db.prepare('select id, name, step_count, definition, deleted_at from scenarios where id = ?');
  const claim = db.prepare(CLAIM_SQL);
  const score = db.prepare(SCORE_SQL);
  const seq = db.prepare(SEQ_SQL);
  const decision = db.prepare(DECISION_SQL);
  const insertRun = db.prepare(RUN_INSERT_SQL);
  const moveStep = db.prepare(MOVE_STEP_SQL);
  const moveFinish = db.prepare(MOVE_FINISH_SQL);
  const answer = db.transaction(
    (c: { runId: string; stepId: string; optionIndex: number; at: string }, decide: Parameters<Store['answer']>[1]) => {
      if (claim.run(c.optionIndex, c.at, c.runId, c.stepId).changes !== 1) return null;
      const fresh = run.get(c.runId) as RunRow;
      const decided = decide(fresh);
      score.run(decided.score, decided.techniqueCounts, c.at, c.runId);
      const next = Number((seq.get(c.runId) as { last: number | null }).last ?? 0) + 1;
      const d = decided.decision;
      decision.run(c.runId, next, d.step_id, d.option_index, d.correct, d.decision, d.feedback, d.technique, d.time_ms, c.at);
      return { seq: next };
    },
  );
  return {
    sessionUser: async (id) => session.get(id) as SessionUser | undefined,
    touchSession: async (id, at) => void touch.run(at, id),
    run: async (id) => run.get(id) as RunRow | undefined,
    scenario: async (id) => scenario.get(id) as ScenarioRow | undefined,
    insertRun: async (r) =>
      void insertRun.run(r.id, r.user_id, r.scenario_id, r.scenario_name, r.step_count, r.current_step_id, '{}', 'in_progress', r.started_at, r.started_at),
    answer: async (c, decide) => answer(c, decide),
    move: async (m) =>
      m.to.kind === 'finish'
        ? moveFinish.run(m.at, m.at, m.runId, m.fromStepId, m.optionIndex).changes === 1
        : moveStep.run(m.to.kind === 'step' ? m.to.stepId : m.fromStepId, m.at, m.runId, m.fromStepId, m.optionIndex).changes === 1,
  };
}

/** `?` placeholders to PostgreSQL's `$1..$n`. */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const one = async <T>(text: string, values: unknown[]) => (await pool.query(numbered(text), values)).rows[0] as T | undefined;
  return {
    sessionUser: (id) => one<SessionUser>(SESSION_SQL, [id]),
    touchSession: async (id, at) => void (await pool.query('update sessions set last_seen_at = $1 where id = $2', [at, id])),
    run: (id) => one<RunRow>('select * from runs where id = ?', [id]),
    scenario: (id) => one<ScenarioRow>('select id, name, step_count, definition, deleted_at from scenarios where id = ?', [id]),
    insertRun: async (r) =>
      void (await pool.query(numbered(RUN_INSERT_SQL), [
        r.id, r.user_id, r.scenario_id, r.scenario_name, r.step_count, r.current_step_id, '{}', 'in_progress', r.started_at, r.started_at,
      ])),
    async answer(c, decide) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const claimed = await client.query(numbered(CLAIM_SQL), [c.optionIndex, c.at, c.runId, c.stepId]);
        if (claimed.rowCount !== 1) {
          await client.query('rollback');
          return null;
        }
        const fresh = (await client.query('select * from runs where id = $1', [c.runId])).rows[0] as RunRow;
        const decided = decide(fresh);
        await client.query(numbered(SCORE_SQL), [decided.score, decided.techniqueCounts, c.at, c.runId]);
        const next = Number(((await client.query(numbered(SEQ_SQL), [c.runId])).rows[0] as { last: number | null }).last ?? 0) + 1;
        const d = decided.decision;
        await client.query(numbered(DECISION_SQL), [c.runId, next, d.step_id, d.option_index, d.correct, d.decision, d.feedback, d.technique, d.time_ms, c.at]);
        await client.query('commit');
        return { seq: next };
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async move(m) {
      const result =
        m.to.kind === 'finish'
          ? await pool.query(numbered(MOVE_FINISH_SQL), [m.at, m.at, m.runId, m.fromStepId, m.optionIndex])
          : await pool.query(numbered(MOVE_STEP_SQL), [m.to.kind === 'step' ? m.to.stepId : m.fromStepId, m.at, m.runId, m.fromStepId, m.optionIndex]);
      return result.rowCount === 1;
    },
  };
}

const store = databaseUrl ? postgresStore(databaseUrl) : sqliteStore();

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'tc_session') return rest.join('=');
  }
  return undefined;
}

async function signedInUser(request: http.IncomingMessage): Promise<SessionUser> {
  const token = cookieToken(request.headers.cookie);
  if (!token) throw new HttpError(401, 'Sign in first.');
  const id = createHash('sha256').update(token).digest('hex');
  const user = await store.sessionUser(id);
  const now = Date.now();
  if (!user || Date.parse(user.expires_at) <= now || user.disabled === 1 || user.role === 'pending') throw new HttpError(401, 'Sign in first.');
  if (now - Date.parse(user.last_seen_at) > 60_000) await store.touchSession(id, new Date(now).toISOString());
  return user;
}

function playerStep(step: ScenarioStep) {
  return {
    id: step.id,
    title: step.title,
    description: step.description,
    artifacts: step.artifacts ?? [],
    hint: step.hint ?? null,
    options: step.options.map((option) => ({ text: option.text })),
  };
}

const techniqueKey = (step: ScenarioStep) => {
  const id = step.mitre_attack?.trim();
  return id ? (findTechnique(id)?.id ?? id.toUpperCase()) : null;
};

async function liveScenario(id: string): Promise<{ row: ScenarioRow; definition: ScenarioDefinition }> {
  const row = await store.scenario(id);
  if (!row || row.deleted_at !== null) throw new HttpError(410, 'This scenario was deleted.');
  return { row, definition: JSON.parse(row.definition) as ScenarioDefinition };
}

async function ownRun(user: SessionUser, id: string): Promise<RunRow> {
  const run = await store.run(id);
  if (!run || run.user_id !== user.id) throw new HttpError(404, 'Run not found.');
  if (run.status !== 'in_progress') throw new HttpError(409, 'This run is finished.');
  return run;
}

async function startRun(user: SessionUser, body: { scenarioId?: unknown }) {
  if (typeof body.scenarioId !== 'string') throw new HttpError(400, 'Choose a scenario.');
  const { row, definition } = await liveScenario(body.scenarioId);
  const first = definition.steps[0]!;
  const id = randomUUID();
  const at = new Date().toISOString();
  await store.insertRun({ id, user_id: user.id, scenario_id: row.id, scenario_name: row.name, step_count: definition.steps.length, current_step_id: first.id, started_at: at });
  return { status: 201, body: { run: { id, status: 'in_progress', score: 0, currentStep: playerStep(first), timeline: [] } } };
}

async function answer(user: SessionUser, runId: string, body: { stepId?: unknown; optionIndex?: unknown; timeMs?: unknown }) {
  if (typeof body.stepId !== 'string' || !Number.isInteger(body.optionIndex) || !Number.isInteger(body.timeMs)) throw new HttpError(400, 'Bad answer.');
  const optionIndex = body.optionIndex as number;
  const run = await ownRun(user, runId);
  const { definition } = await liveScenario(run.scenario_id);
  if (body.stepId !== run.current_step_id || run.current_answered === 1) throw new HttpError(409, 'Not the current step.');
  const steps = definition.steps;
  const step = steps.find((candidate) => candidate.id === run.current_step_id);
  const option = step?.options[optionIndex];
  if (!step || !option) throw new HttpError(400, 'That option does not exist on this step.');
  const verdict = judgeAnswer(step, optionIndex);
  const technique = techniqueKey(step);
  const at = new Date().toISOString();
  const stored = await store.answer({ runId, stepId: step.id, optionIndex, at }, (fresh) => {
    const scored = scoreAnswer({ score: fresh.score, techniqueCounts: JSON.parse(fresh.technique_counts) as Record<string, number> }, { correct: verdict.correct, technique });
    return {
      score: scored.score,
      techniqueCounts: JSON.stringify(scored.techniqueCounts),
      decision: { step_id: step.id, option_index: optionIndex, correct: verdict.correct ? 1 : 0, decision: option.text, feedback: verdict.feedback, technique, time_ms: body.timeMs as number },
    };
  });
  if (!stored) throw new HttpError(409, 'Already answered.');
  const next = resolveNextStep(steps, step.id, optionIndex);
  return {
    status: 200,
    body: {
      correct: verdict.correct,
      feedback: verdict.feedback,
      nextAction: next.kind === 'step' ? 'next' : next.kind,
      run: { id: runId, status: 'in_progress', timeline: [{ seq: stored.seq, stepId: step.id, optionIndex, correct: verdict.correct }] },
    },
  };
}

async function moveOn(user: SessionUser, runId: string) {
  const run = await ownRun(user, runId);
  const { definition } = await liveScenario(run.scenario_id);
  if (run.current_answered !== 1 || run.last_option_index === null) throw new HttpError(409, 'Answer the step first.');
  const steps = definition.steps;
  const to = resolveNextStep(steps, run.current_step_id, run.last_option_index);
  const at = new Date().toISOString();
  if (!(await store.move({ runId, fromStepId: run.current_step_id, optionIndex: run.last_option_index, to, at }))) throw new HttpError(409, 'Answer the step first.');
  if (to.kind === 'finish') return { status: 200, body: { run: { id: runId, status: 'completed', currentStep: null } } };
  const stepId = to.kind === 'step' ? to.stepId : run.current_step_id;
  return { status: 200, body: { run: { id: runId, status: 'in_progress', currentStep: playerStep(steps.find((s) => s.id === stepId)!) } } };
}

const RUN_ACTION = /^\/api\/runs\/([^/]{1,100})\/(answer|next)$/;

async function route(request: http.IncomingMessage, raw: string): Promise<{ status: number; body: unknown }> {
  if (request.method === 'GET' && request.url === '/api/health') return { status: 200, body: { ok: true } };
  if (request.method !== 'POST') throw new HttpError(404, 'Not found.');
  const user = await signedInUser(request);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw || '{}') as Record<string, unknown>;
  } catch {
    throw new HttpError(400, 'Send JSON.');
  }
  if (request.url === '/api/runs') return startRun(user, body);
  const match = RUN_ACTION.exec(request.url ?? '');
  if (!match) throw new HttpError(404, 'Not found.');
  return match[2] === 'answer' ? answer(user, match[1]!, body) : moveOn(user, match[1]!);
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > 1024 * 1024) request.destroy();
    else chunks.push(chunk);
  });
  request.on('end', () => {
    route(request, Buffer.concat(chunks).toString('utf8'))
      .catch((error: unknown) =>
        error instanceof HttpError ? { status: error.status, body: { error: error.message } } : { status: 500, body: { error: String(error) } },
      )
      .then(({ status, body }) => {
        const text = JSON.stringify(body);
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        response.end(text);
      });
  });
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
