// The baseline of the answer benchmark: the same database work as the product's answer path with no framework
// at all. Bare node:http, the same drivers (better-sqlite3 / pg, no query builder), the same SQL, the answer
// in one transaction; the session is looked up per request as the product does. It answers only what the
// load generator needs. Started by bench/answer/answer.bench.ts; never part of the product.
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import SQLite from '../../apps/server/src/db/sqlite-driver';
import pg from 'pg';
import {
  bestPath,
  DEFAULT_HINT_COST,
  gradeStep,
  hasShownOptions,
  resolveNextStep,
  runPercentBase,
  shownOrder,
  stepSkill,
  toThousandths,
  validateAnswer,
  type AnswerInput,
  type ScenarioDefinition,
  type ScenarioStep,
} from '@tradecraft/shared';
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
  last_credit_thousandths: number | null;
  score_thousandths: number;
  played_steps: number;
  best_path_steps: number;
  pending_reviews: number;
  hint_opened: number;
  visit_submitted: number;
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
  kind: string;
  skill: string;
  credit_thousandths: number;
  first_submission: number;
  scored: number;
  hint_used: number;
  result: string;
}

/** What an answer writes on its run. */
interface RunFigures {
  score_thousandths: number;
  played_steps: number;
  percent_base: number;
  pending_reviews: number;
  last_option_index: number;
  last_credit_thousandths: number;
}

/** A written answer's review row (write steps only). */
interface Review {
  user_id: string;
  scenario_id: string;
  step_id: string;
  auto_thousandths: number;
  hint_cost_thousandths: number;
}

/** The statements the answer path runs, for one driver. */
interface Store {
  sessionUser(sessionId: string): Promise<SessionUser | undefined>;
  touchSession(sessionId: string, at: string): Promise<void>;
  run(id: string): Promise<RunRow | undefined>;
  scenario(id: string): Promise<ScenarioRow | undefined>;
  insertRun(run: Record<string, unknown>): Promise<void>;
  /** The trainee's run of the scenario in progress (one at most), which a start continues as the product's does. */
  runInProgress(userId: string, scenarioId: string): Promise<RunRow | undefined>;
  endRun(runId: string, at: string): Promise<void>;
  /** claim, re-read, score, next seq, insert decision: one transaction; false when the claim lost. */
  answer(
    claim: { runId: string; stepId: string; at: string },
    decide: (fresh: RunRow) => {
      figures: RunFigures;
      decision: Omit<Decision, 'at' | 'run_id'>;
      review: Review | null;
    },
  ): Promise<{ seq: number } | null>;
  move(move: {
    runId: string;
    fromStepId: string;
    optionIndex: number;
    to: ReturnType<typeof resolveNextStep>;
    percentBase: number;
    at: string;
  }): Promise<boolean>;
}

const SESSION_SQL =
  'select users.id, users.role, users.disabled, sessions.last_seen_at, sessions.expires_at from sessions inner join users on users.id = sessions.user_id where sessions.id = ?';
const CLAIM_SQL =
  "update runs set current_answered = 1, updated_at = ? where id = ? and status = 'in_progress' and current_step_id = ? and current_answered = 0";
const SCORE_SQL =
  'update runs set score_thousandths = ?, played_steps = ?, percent_base = ?, pending_reviews = ?, visit_submitted = 1, last_option_index = ?, last_credit_thousandths = ?, updated_at = ? where id = ?';
/** The values of one run_decisions row in DECISION_SQL's order (both dialects bind the same list). */
function decisionValues(runId: string, seq: number, at: string, d: Omit<Decision, 'at' | 'run_id'>): unknown[] {
  return [
    runId,
    seq,
    d.step_id,
    d.option_index,
    d.correct,
    d.decision,
    d.feedback,
    d.technique,
    d.time_ms,
    at,
    d.kind,
    d.skill,
    d.credit_thousandths,
    d.first_submission,
    d.scored,
    d.hint_used,
    d.result,
  ];
}

const SEQ_SQL = 'select max(seq) as last from run_decisions where run_id = ?';
const DECISION_SQL =
  'insert into run_decisions (run_id, seq, step_id, option_index, correct, decision, feedback, technique, time_ms, at, kind, skill, credit_thousandths, first_submission, scored, hint_used, result) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id';
const REVIEW_SQL =
  "insert into step_reviews (decision_id, run_id, user_id, scenario_id, step_id, status, auto_thousandths, hint_cost_thousandths, submitted_at) values (?, ?, ?, ?, ?, 'pending', ?, ?, ?)";
const RUN_IN_PROGRESS_SQL = "select * from runs where user_id = ? and scenario_id = ? and status = 'in_progress'";
const RUN_END_SQL =
  "update runs set status = 'ended', finished_at = ?, updated_at = ? where id = ? and status = 'in_progress'";
const RUN_INSERT_SQL =
  'insert into runs (id, user_id, scenario_id, scenario_name, step_count, current_step_id, current_answered, last_option_index, score_thousandths, percent_base, played_steps, best_path_steps, pending_reviews, hint_opened, visit_submitted, status, started_at, finished_at, updated_at) values (?, ?, ?, ?, ?, ?, 0, null, 0, ?, 0, ?, 0, 0, 0, ?, ?, null, ?)';
// A move to another step starts a new visit; a Retry (same step) keeps the visit's first submission and hint.
const MOVE_STEP_SQL =
  "update runs set current_step_id = ?, current_answered = 0, last_option_index = null, last_credit_thousandths = null, visit_submitted = case when current_step_id = ? and ? = 1 then visit_submitted else 0 end, hint_opened = case when current_step_id = ? and ? = 1 then hint_opened else 0 end, updated_at = ? where id = ? and status = 'in_progress' and current_step_id = ? and current_answered = 1 and last_option_index = ?";
const MOVE_FINISH_SQL =
  "update runs set status = 'completed', finished_at = ?, percent_base = ?, updated_at = ? where id = ? and status = 'in_progress' and current_step_id = ? and current_answered = 1 and last_option_index = ?";

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
  const inProgress = db.prepare(RUN_IN_PROGRESS_SQL);
  const endRun = db.prepare(RUN_END_SQL);
  const moveStep = db.prepare(MOVE_STEP_SQL);
  const moveFinish = db.prepare(MOVE_FINISH_SQL);
  const review = db.prepare(REVIEW_SQL);
  const answer = db.transaction(
    (c: { runId: string; stepId: string; at: string }, decide: Parameters<Store['answer']>[1]) => {
      if (claim.run(c.at, c.runId, c.stepId).changes !== 1) return null;
      const fresh = run.get(c.runId) as RunRow;
      const { figures: f, decision: d, review: r } = decide(fresh);
      score.run(
        f.score_thousandths,
        f.played_steps,
        f.percent_base,
        f.pending_reviews,
        f.last_option_index,
        f.last_credit_thousandths,
        c.at,
        c.runId,
      );
      const next = Number((seq.get(c.runId) as { last: number | null }).last ?? 0) + 1;
      const inserted = decision.get(...decisionValues(c.runId, next, c.at, d)) as { id: number };
      if (r)
        review.run(
          inserted.id,
          c.runId,
          r.user_id,
          r.scenario_id,
          r.step_id,
          r.auto_thousandths,
          r.hint_cost_thousandths,
          c.at,
        );
      return { seq: next };
    },
  );
  return {
    sessionUser: async (id) => session.get(id) as SessionUser | undefined,
    touchSession: async (id, at) => void touch.run(at, id),
    run: async (id) => run.get(id) as RunRow | undefined,
    scenario: async (id) => scenario.get(id) as ScenarioRow | undefined,
    runInProgress: async (userId, scenarioId) => inProgress.get(userId, scenarioId) as RunRow | undefined,
    endRun: async (runId, at) => void endRun.run(at, at, runId),
    insertRun: async (r) =>
      void insertRun.run(
        r.id,
        r.user_id,
        r.scenario_id,
        r.scenario_name,
        r.step_count,
        r.current_step_id,
        r.percent_base,
        r.best_path_steps,
        'in_progress',
        r.started_at,
        r.started_at,
      ),
    answer: async (c, decide) => answer(c, decide),
    move: async (m) =>
      m.to.kind === 'finish'
        ? moveFinish.run(m.at, m.percentBase, m.at, m.runId, m.fromStepId, m.optionIndex).changes === 1
        : moveStep.run(...moveValues(m)).changes === 1,
  };
}

/** The values of MOVE_STEP_SQL: a Retry stays on the step and keeps the visit. */
function moveValues(m: Parameters<Store['move']>[0]): unknown[] {
  const retry = m.to.kind === 'retry' ? 1 : 0;
  const to = m.to.kind === 'step' ? m.to.stepId : m.fromStepId;
  return [to, m.fromStepId, retry, m.fromStepId, retry, m.at, m.runId, m.fromStepId, m.optionIndex];
}

/** `?` placeholders to PostgreSQL's `$1..$n`. */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const one = async <T>(text: string, values: unknown[]) =>
    (await pool.query(numbered(text), values)).rows[0] as T | undefined;
  return {
    sessionUser: (id) => one<SessionUser>(SESSION_SQL, [id]),
    touchSession: async (id, at) =>
      void (await pool.query('update sessions set last_seen_at = $1 where id = $2', [at, id])),
    run: (id) => one<RunRow>('select * from runs where id = ?', [id]),
    runInProgress: (userId, scenarioId) => one<RunRow>(RUN_IN_PROGRESS_SQL, [userId, scenarioId]),
    endRun: async (runId, at) => void (await pool.query(numbered(RUN_END_SQL), [at, at, runId])),
    scenario: (id) =>
      one<ScenarioRow>('select id, name, step_count, definition, deleted_at from scenarios where id = ?', [id]),
    insertRun: async (r) =>
      void (await pool.query(numbered(RUN_INSERT_SQL), [
        r.id,
        r.user_id,
        r.scenario_id,
        r.scenario_name,
        r.step_count,
        r.current_step_id,
        r.percent_base,
        r.best_path_steps,
        'in_progress',
        r.started_at,
        r.started_at,
      ])),
    async answer(c, decide) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const claimed = await client.query(numbered(CLAIM_SQL), [c.at, c.runId, c.stepId]);
        if (claimed.rowCount !== 1) {
          await client.query('rollback');
          return null;
        }
        const fresh = (await client.query('select * from runs where id = $1', [c.runId])).rows[0] as RunRow;
        const { figures: f, decision: d, review: r } = decide(fresh);
        await client.query(numbered(SCORE_SQL), [
          f.score_thousandths,
          f.played_steps,
          f.percent_base,
          f.pending_reviews,
          f.last_option_index,
          f.last_credit_thousandths,
          c.at,
          c.runId,
        ]);
        const next =
          Number(((await client.query(numbered(SEQ_SQL), [c.runId])).rows[0] as { last: number | null }).last ?? 0) + 1;
        const inserted = await client.query(numbered(DECISION_SQL), decisionValues(c.runId, next, c.at, d));
        if (r) {
          await client.query(numbered(REVIEW_SQL), [
            (inserted.rows[0] as { id: number }).id,
            c.runId,
            r.user_id,
            r.scenario_id,
            r.step_id,
            r.auto_thousandths,
            r.hint_cost_thousandths,
            c.at,
          ]);
        }
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
          ? await pool.query(numbered(MOVE_FINISH_SQL), [
              m.at,
              m.percentBase,
              m.at,
              m.runId,
              m.fromStepId,
              m.optionIndex,
            ])
          : await pool.query(numbered(MOVE_STEP_SQL), moveValues(m));
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
  if (!user || Date.parse(user.expires_at) <= now || user.disabled === 1 || user.role === 'pending')
    throw new HttpError(401, 'Sign in first.');
  if (now - Date.parse(user.last_seen_at) > 60_000) await store.touchSession(id, new Date(now).toISOString());
  return user;
}

/** The step as the player sees it: what the load generator needs to answer it (no key). */
function playerStep(runId: string, step: ScenarioStep) {
  const order = orderOf(runId, step);
  const common = {
    id: step.id,
    kind: step.kind,
    title: step.title,
    description: step.description,
    artifacts: step.artifacts ?? [],
    hint: null,
  };
  switch (step.kind) {
    case 'choice':
    case 'multi':
    case 'rank':
      return { ...common, options: order.map((file) => ({ text: step.options[file]?.text ?? '' })) };
    case 'estimate':
      return { ...common, statement: step.statement, askConfidence: step.ask_confidence === true, options: [] };
    case 'extract':
      return { ...common, fields: step.fields.map((field) => ({ label: field.label, type: field.type })), options: [] };
    case 'ach':
      return { ...common, hypotheses: step.hypotheses, evidence: step.evidence.map((row) => row.text), options: [] };
    case 'write':
      return { ...common, prompt: step.prompt, maxWords: step.max_words, options: [] };
    default:
      return { ...common, options: [] };
  }
}

const orderOf = (runId: string, step: ScenarioStep) =>
  hasShownOptions(step) ? shownOrder(runId, step.id, step.options.length) : [];

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
  // One run in progress per trainee and scenario (a unique index): a start continues it, as the product's does;
  // one left answered but not moved on is ended instead, so the player can start afresh.
  const unfinished = await store.runInProgress(user.id, row.id);
  if (unfinished && unfinished.current_answered === 0) {
    const current = definition.steps.find((step) => step.id === unfinished.current_step_id)!;
    const run = { id: unfinished.id, status: 'in_progress', score: unfinished.score_thousandths / 1000 };
    return { status: 200, body: { run: { ...run, currentStep: playerStep(unfinished.id, current), timeline: [] } } };
  }
  if (unfinished) await store.endRun(unfinished.id, new Date().toISOString());
  const first = definition.steps[0]!;
  const id = randomUUID();
  const at = new Date().toISOString();
  const bestPathSteps = bestPath(definition.steps).scoredSteps;
  await store.insertRun({
    id,
    user_id: user.id,
    scenario_id: row.id,
    scenario_name: row.name,
    step_count: definition.steps.length,
    current_step_id: first.id,
    percent_base: bestPathSteps,
    best_path_steps: bestPathSteps,
    started_at: at,
  });
  return {
    status: 201,
    body: { run: { id, status: 'in_progress', score: 0, currentStep: playerStep(id, first), timeline: [] } },
  };
}

async function answer(user: SessionUser, runId: string, body: Record<string, unknown>) {
  if (typeof body.stepId !== 'string' || !Number.isInteger(body.timeMs)) throw new HttpError(400, 'Bad answer.');
  const input = body as unknown as AnswerInput;
  const run = await ownRun(user, runId);
  const { definition } = await liveScenario(run.scenario_id);
  if (body.stepId !== run.current_step_id || run.current_answered === 1)
    throw new HttpError(409, 'Not the current step.');
  const steps = definition.steps;
  const step = steps.find((candidate) => candidate.id === run.current_step_id);
  if (!step) throw new HttpError(409, 'The scenario changed.');
  const malformed = validateAnswer(step, input);
  if (malformed) throw new HttpError(400, malformed);
  const technique = techniqueKey(step);
  const scored = step.scored !== false;
  const hintCost = step.hint_cost ?? definition.hint_cost ?? DEFAULT_HINT_COST;
  const at = new Date().toISOString();
  let fileOptionIndex = -1;
  let outcome: Parameters<typeof resolveNextStep>[2] = 0;
  let verdict = { correct: false, feedback: '' };
  const stored = await store.answer({ runId, stepId: step.id, at }, (fresh) => {
    const firstSubmission = fresh.visit_submitted === 0;
    const graded = gradeStep(step, input, {
      order: orderOf(runId, step),
      hintOpened: fresh.hint_opened === 1,
      hintCost,
      firstSubmission,
    });
    const counted = firstSubmission && scored;
    const playedSteps = fresh.played_steps + (counted ? 1 : 0);
    const pendingReview = graded.result.kind === 'write' && graded.result.review !== null;
    fileOptionIndex = graded.fileOptionIndex;
    outcome = graded.outcome;
    verdict = { correct: graded.rawThousandths >= 1000, feedback: graded.feedback };
    return {
      figures: {
        score_thousandths: fresh.score_thousandths + graded.earnedThousandths,
        played_steps: playedSteps,
        percent_base: runPercentBase({ status: 'in_progress', playedSteps, bestPathSteps: fresh.best_path_steps }),
        pending_reviews: fresh.pending_reviews + (pendingReview ? 1 : 0),
        last_option_index: graded.fileOptionIndex,
        last_credit_thousandths: graded.rawThousandths,
      },
      decision: {
        step_id: step.id,
        option_index: graded.fileOptionIndex,
        correct: graded.rawThousandths >= 1000 ? 1 : 0,
        decision: graded.decision,
        feedback: graded.feedback,
        technique,
        time_ms: body.timeMs as number,
        kind: step.kind,
        skill: stepSkill(step),
        credit_thousandths: graded.earnedThousandths,
        first_submission: firstSubmission ? 1 : 0,
        scored: scored ? 1 : 0,
        hint_used: fresh.hint_opened,
        result: JSON.stringify(graded.result),
      },
      review: pendingReview
        ? {
            user_id: user.id,
            scenario_id: run.scenario_id,
            step_id: step.id,
            auto_thousandths: graded.earnedThousandths,
            hint_cost_thousandths: graded.result.hintCharged ? toThousandths(hintCost) : 0,
          }
        : null,
    };
  });
  if (!stored) throw new HttpError(409, 'Already answered.');
  const next = resolveNextStep(steps, step.id, outcome);
  return {
    status: 200,
    body: {
      correct: verdict.correct,
      feedback: verdict.feedback,
      nextAction: next.kind === 'step' ? 'next' : next.kind,
      run: {
        id: runId,
        status: 'in_progress',
        timeline: [{ seq: stored.seq, stepId: step.id, optionIndex: fileOptionIndex, correct: verdict.correct }],
      },
    },
  };
}

async function moveOn(user: SessionUser, runId: string) {
  const run = await ownRun(user, runId);
  const { definition } = await liveScenario(run.scenario_id);
  if (run.current_answered !== 1 || run.last_option_index === null) throw new HttpError(409, 'Answer the step first.');
  const steps = definition.steps;
  const step = steps.find((candidate) => candidate.id === run.current_step_id)!;
  const to =
    step.kind === 'choice'
      ? resolveNextStep(steps, step.id, run.last_option_index)
      : resolveNextStep(steps, step.id, { credit: (run.last_credit_thousandths ?? 0) / 1000 });
  const at = new Date().toISOString();
  const percentBase = runPercentBase({
    status: 'completed',
    playedSteps: run.played_steps,
    bestPathSteps: run.best_path_steps,
  });
  if (
    !(await store.move({
      runId,
      fromStepId: run.current_step_id,
      optionIndex: run.last_option_index,
      to,
      percentBase,
      at,
    }))
  ) {
    throw new HttpError(409, 'Answer the step first.');
  }
  if (to.kind === 'finish')
    return { status: 200, body: { run: { id: runId, status: 'completed', currentStep: null } } };
  const stepId = to.kind === 'step' ? to.stepId : run.current_step_id;
  return {
    status: 200,
    body: {
      run: {
        id: runId,
        status: 'in_progress',
        currentStep: playerStep(
          runId,
          steps.find((s) => s.id === stepId)!,
        ),
      },
    },
  };
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
        error instanceof HttpError
          ? { status: error.status, body: { error: error.message } }
          : { status: 500, body: { error: String(error) } },
      )
      .then(({ status, body }) => {
        const text = JSON.stringify(body);
        response.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
        });
        response.end(text);
      });
  });
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
