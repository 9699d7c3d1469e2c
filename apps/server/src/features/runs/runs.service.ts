import { randomUUID } from 'node:crypto';
import {
  judgeAnswer,
  resolveNextStep,
  RUN_MESSAGES,
  scoreAnswer,
  scorePercent,
  type AnswerInput,
  type AnswerResult,
  type NextAction,
  type NextStep,
  type PlayerStep,
  type RunAnswer,
  type RunState,
  type ScenarioDefinition,
  type ScenarioStep,
  type StartRunInput,
  type TechniqueCounts,
  type TechniqueRef,
} from '@tradecraft/shared';
import { findTechnique } from '@tradecraft/shared/attack';
import { nowIso } from '../../clock';
import type { Db, DbOrTrx } from '../../db/database';
import type { Run, User } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { consumeRateLimit, MINUTE, type RateLimit } from '../auth/rate-limit';
import {
  claimCurrentStepReturningRun,
  endRun as endRunRow,
  findRun,
  findScenarioForRun,
  insertDecision,
  insertRun,
  listDecisions,
  moveRunReturningRun,
  nextDecisionSeq,
  updateRunScore,
  type RunDecisionRow,
  type ScenarioForRun,
} from './runs.repository';

// A run whose scenario was deleted after it started keeps its recorded data (GET shows it, End closes it),
// but it cannot be played on: answers and moves get 410 Gone with RUN_MESSAGES.scenarioDeleted.
const gone = (message: string) => new AppError(410, message);

interface LoadedScenario {
  row: ScenarioForRun;
  definition: ScenarioDefinition;
  deleted: boolean;
}

// Parsing a definition costs more than the rest of an answer, and every answer and move needs one: the parsed
// definitions are kept by their exact JSON text, so an edited scenario can never be served from a stale parse.
// They are shared between requests and never mutated.
const PARSED_DEFINITIONS_KEPT = 64;
const parsedDefinitions = new Map<string, ScenarioDefinition>();

function parseDefinition(text: string): ScenarioDefinition {
  const cached = parsedDefinitions.get(text);
  if (cached) return cached;
  const definition = JSON.parse(text) as ScenarioDefinition;
  parsedDefinitions.set(text, definition);
  if (parsedDefinitions.size > PARSED_DEFINITIONS_KEPT) parsedDefinitions.delete(parsedDefinitions.keys().next().value!);
  return definition;
}

async function loadScenario(db: DbOrTrx, id: string): Promise<LoadedScenario | undefined> {
  const row = await findScenarioForRun(db, id);
  if (!row) return undefined;
  // The scenarios feature stores the checked, normalised definition (every option an object).
  return { row, definition: parseDefinition(row.definition), deleted: row.deleted_at !== null };
}

/** "Phishing: Spearphishing Attachment" for T1566.001; the id itself when the dataset does not know it. */
function techniqueRef(id: string): TechniqueRef {
  const technique = findTechnique(id);
  if (!technique) return { id, name: id };
  const parent = technique.subtechnique_of ? findTechnique(technique.subtechnique_of) : undefined;
  return { id: technique.id, name: parent ? `${parent.name}: ${technique.name}` : technique.name };
}

/** The key a step's technique is counted under (the dataset's spelling of the id). */
function techniqueKey(step: ScenarioStep): string | null {
  const id = step.mitre_attack?.trim();
  if (!id) return null;
  return findTechnique(id)?.id ?? id.toUpperCase();
}

function parseTechniqueCounts(text: string): TechniqueCounts {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0),
    );
  } catch {
    return {};
  }
}

const nextActionOf = (next: NextStep): NextAction => (next.kind === 'step' ? 'next' : next.kind);

/** The step as a trainee may see it before answering: no correct option, no next steps, no feedback. */
function redactStep(definition: ScenarioDefinition, step: ScenarioStep): PlayerStep {
  const technique = techniqueKey(step);
  return {
    id: step.id,
    position: definition.steps.findIndex((candidate) => candidate.id === step.id) + 1,
    title: step.title,
    description: step.description,
    artifacts: (step.artifacts ?? []).map((artifact) => ({
      kind: artifact.kind,
      ...(artifact.title ? { title: artifact.title } : {}),
      ...(artifact.source ? { source: artifact.source } : {}),
      ...(artifact.date ? { date: artifact.date } : {}),
      content: artifact.content,
      ...(artifact.indicators?.length
        ? {
            indicators: artifact.indicators.map((indicator) => ({
              type: indicator.type,
              value: indicator.value,
              ...(indicator.context ? { context: indicator.context } : {}),
            })),
          }
        : {}),
    })),
    hint: step.hint?.trim() ? step.hint : null,
    technique: technique ? techniqueRef(technique) : null,
    options: step.options.map((option) => ({ text: option.text })),
  };
}

function durationSeconds(run: Run, now: string): number {
  const end = Date.parse(run.finished_at ?? now);
  return Math.max(0, Math.round((end - Date.parse(run.started_at)) / 1000));
}

/** The whole state of a run for the player, the end screen and resume. */
function describeRun(run: Run, decisions: RunDecisionRow[], scenario: LoadedScenario | undefined, viewer: User): RunState {
  const steps = scenario?.definition.steps ?? [];
  const stepById = new Map(steps.map((step) => [step.id, step]));
  const playable = run.status === 'in_progress' && scenario !== undefined && !scenario.deleted;
  const current = playable ? stepById.get(run.current_step_id) : undefined;

  let answer: RunAnswer | null = null;
  if (current && run.current_answered === 1 && run.last_option_index !== null && current.options[run.last_option_index]) {
    const last = decisions.at(-1);
    const verdict = judgeAnswer(current, run.last_option_index);
    answer = {
      optionIndex: run.last_option_index,
      correct: verdict.correct,
      correctOptionIndex: current.correct_option,
      // The feedback as it was written when the answer was given.
      feedback: last && last.step_id === current.id ? last.feedback : verdict.feedback,
      nextAction: nextActionOf(resolveNextStep(steps, current.id, run.last_option_index)),
    };
  }

  const counts = parseTechniqueCounts(run.technique_counts);
  const techniqueScores = Object.entries(counts)
    .map(([id, count]) => ({ ...techniqueRef(id), count }))
    .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
  const correctCount = decisions.filter((decision) => decision.correct === 1).length;

  return {
    id: run.id,
    scenarioId: run.scenario_id,
    scenarioName: run.scenario_name,
    stepCount: run.step_count,
    status: run.status,
    score: run.score,
    scorePercent: scorePercent(run.score, run.step_count),
    correctCount,
    incorrectCount: decisions.length - correctCount,
    techniqueScores,
    startedAt: run.started_at,
    finishedAt: run.finished_at,
    durationSeconds: durationSeconds(run, nowIso()),
    scenarioDeleted: scenario === undefined || scenario.deleted,
    readOnly: run.user_id !== viewer.id,
    currentStep: current ? redactStep(scenario!.definition, current) : null,
    answer,
    timeline: decisions.map((decision) => ({
      seq: decision.seq,
      stepId: decision.step_id,
      stepTitle: stepById.get(decision.step_id)?.title ?? null,
      optionIndex: decision.option_index,
      decision: decision.decision,
      correct: decision.correct === 1,
      feedback: decision.feedback,
      technique: decision.technique ? techniqueRef(decision.technique) : null,
      timeMs: decision.time_ms,
      at: decision.at,
    })),
  };
}

async function loadRunState(db: DbOrTrx, run: Run, viewer: User): Promise<RunState> {
  const [decisions, scenario] = await Promise.all([listDecisions(db, run.id), loadScenario(db, run.scenario_id)]);
  return describeRun(run, decisions, scenario, viewer);
}

/** A run the viewer may read: their own, or anyone's for an admin; 404 for everyone else. */
async function readableRun(db: DbOrTrx, viewer: User, id: string): Promise<Run> {
  const run = await findRun(db, id);
  if (!run || (run.user_id !== viewer.id && viewer.role !== 'admin')) throw notFound(RUN_MESSAGES.runNotFound);
  return run;
}

/** A run the viewer may play: only their own (an admin reading someone's run gets 403). */
async function playableRun(db: DbOrTrx, viewer: User, id: string): Promise<Run> {
  const run = await readableRun(db, viewer, id);
  if (run.user_id !== viewer.id) throw forbidden(RUN_MESSAGES.notOwner);
  if (run.status !== 'in_progress') throw conflict(RUN_MESSAGES.finished);
  return run;
}

/** The scenario a run plays on, refusing when it was deleted since the run started. */
async function liveScenario(db: DbOrTrx, run: Run): Promise<LoadedScenario> {
  const scenario = await loadScenario(db, run.scenario_id);
  if (!scenario || scenario.deleted) throw gone(RUN_MESSAGES.scenarioDeleted);
  return scenario;
}

/** Why a conditional update on the run found nothing to change, read again after the race was lost. */
async function lostRaceMessage(db: DbOrTrx, runId: string, fallback: string): Promise<string> {
  const fresh = await findRun(db, runId);
  return fresh && fresh.status !== 'in_progress' ? RUN_MESSAGES.finished : fallback;
}

/** Starts a run at the scenario's first step, recording its name and step count as they are now. */
/** Runs one user may start per minute (RUN_STARTS_PER_MINUTE): each start writes a run, so a script cannot flood the table. */
export const runStartsLimit = (perMinute: number): RateLimit => ({
  name: 'run-starts',
  max: perMinute,
  windowMs: MINUTE,
  message: 'You have started too many runs in the last minute. Please wait a minute and try again.',
});

async function startRunOn(db: Db, user: User, input: StartRunInput, limit: RateLimit): Promise<RunState> {
  await consumeRateLimit(db, limit, user.id);
  const scenario = await loadScenario(db, input.scenarioId);
  if (!scenario || scenario.deleted) throw notFound(RUN_MESSAGES.scenarioNotFound);
  const first = scenario.definition.steps[0];
  if (!first) throw conflict(RUN_MESSAGES.scenarioChanged);
  const now = nowIso();
  const run: Run = {
    id: randomUUID(),
    user_id: user.id,
    scenario_id: scenario.row.id,
    scenario_name: scenario.row.name,
    step_count: scenario.definition.steps.length,
    current_step_id: first.id,
    current_answered: 0,
    last_option_index: null,
    score: 0,
    technique_counts: '{}',
    status: 'in_progress',
    started_at: now,
    finished_at: null,
    updated_at: now,
  };
  await insertRun(db, run);
  return describeRun(run, [], scenario, user);
}

async function getRunOn(db: Db, viewer: User, id: string): Promise<RunState> {
  return loadRunState(db, await readableRun(db, viewer, id), viewer);
}

/**
 * Answers the run's current step. The server decides correctness and feedback; the decision, the score and
 * the technique counts are written in one transaction, and only the first answer to a step is taken.
 */
async function answerStepOn(db: Db, user: User, id: string, input: AnswerInput): Promise<AnswerResult> {
  const run = await playableRun(db, user, id);
  const scenario = await liveScenario(db, run);
  if (input.stepId !== run.current_step_id) throw conflict(RUN_MESSAGES.notCurrentStep);
  if (run.current_answered === 1) throw conflict(RUN_MESSAGES.alreadyAnswered);
  const steps = scenario.definition.steps;
  const step = steps.find((candidate) => candidate.id === run.current_step_id);
  if (!step) throw conflict(RUN_MESSAGES.scenarioChanged);
  const option = step.options[input.optionIndex];
  if (!option) throw badRequest(RUN_MESSAGES.noSuchOption);

  const verdict = judgeAnswer(step, input.optionIndex);
  const nextAction = nextActionOf(resolveNextStep(steps, step.id, input.optionIndex));
  const technique = techniqueKey(step);

  const answered = await db.transaction().execute(async (trx) => {
    const at = nowIso();
    // The claimed row is read under the claim: the score may have moved since the checks above (another tab, a Retry).
    const fresh = await claimCurrentStepReturningRun(trx, { runId: run.id, stepId: step.id, optionIndex: input.optionIndex, at });
    if (!fresh) throw conflict(await lostRaceMessage(trx, run.id, RUN_MESSAGES.alreadyAnswered));
    const scored = scoreAnswer(
      { score: fresh.score, techniqueCounts: parseTechniqueCounts(fresh.technique_counts) },
      { correct: verdict.correct, technique },
    );
    const updated = await updateRunScore(trx, run.id, { score: scored.score, techniqueCounts: JSON.stringify(scored.techniqueCounts), at });
    await insertDecision(trx, {
      run_id: run.id,
      seq: await nextDecisionSeq(trx, run.id),
      step_id: step.id,
      option_index: input.optionIndex,
      correct: verdict.correct ? 1 : 0,
      decision: option.text,
      feedback: verdict.feedback,
      technique,
      time_ms: input.timeMs,
      at,
    });
    return updated;
  });

  // The run as this answer left it, drawn with the scenario already loaded above.
  const state = describeRun(answered, await listDecisions(db, run.id), scenario, user);
  return { correct: verdict.correct, feedback: verdict.feedback, nextAction, score: state.score, run: state };
}

/**
 * Moves on after an answer by the shared step-flow rule: to the named or following step, back to the same
 * step for a Retry, or past the last step to completion.
 */
async function moveOnOn(db: Db, user: User, id: string): Promise<RunState> {
  const run = await playableRun(db, user, id);
  const scenario = await liveScenario(db, run);
  if (run.current_answered !== 1 || run.last_option_index === null) throw conflict(RUN_MESSAGES.notAnswered);
  const steps = scenario.definition.steps;
  const step = steps.find((candidate) => candidate.id === run.current_step_id);
  if (!step?.options[run.last_option_index]) throw conflict(RUN_MESSAGES.scenarioChanged);

  const next = resolveNextStep(steps, step.id, run.last_option_index);
  const moved = await moveRunReturningRun(db, {
    runId: run.id,
    fromStepId: step.id,
    optionIndex: run.last_option_index,
    to: next,
    at: nowIso(),
  });
  if (!moved) throw conflict(await lostRaceMessage(db, run.id, RUN_MESSAGES.notAnswered));
  return describeRun(moved, await listDecisions(db, run.id), scenario, user);
}

/** End Simulation: finishes at once with status ended; the score so far stays. */
async function endRunOn(db: Db, user: User, id: string): Promise<RunState> {
  const run = await playableRun(db, user, id);
  const ended = await endRunRow(db, run.id, nowIso());
  if (!ended) throw conflict(RUN_MESSAGES.finished);
  return loadRunState(db, ended, user);
}

// Each request of the run engine runs its queries on one connection held from start to finish. On SQLite (one
// connection per process) a request then finishes before the next one starts, instead of every request in
// flight taking turns query by query: under load the slowest answers come back sooner (bench/, answer path).
// On PostgreSQL it takes one pool connection per request instead of one per query.
export const startRun = (db: Db, user: User, input: StartRunInput, limit: RateLimit): Promise<RunState> =>
  db.connection().execute((connection) => startRunOn(connection, user, input, limit));

export const getRun = (db: Db, viewer: User, id: string): Promise<RunState> =>
  db.connection().execute((connection) => getRunOn(connection, viewer, id));

export const answerStep = (db: Db, user: User, id: string, input: AnswerInput): Promise<AnswerResult> =>
  db.connection().execute((connection) => answerStepOn(connection, user, id, input));

export const moveOn = (db: Db, user: User, id: string): Promise<RunState> =>
  db.connection().execute((connection) => moveOnOn(connection, user, id));

export const endRun = (db: Db, user: User, id: string): Promise<RunState> =>
  db.connection().execute((connection) => endRunOn(connection, user, id));
