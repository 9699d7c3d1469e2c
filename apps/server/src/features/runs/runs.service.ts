import { randomUUID } from 'node:crypto';
import {
  bestPath,
  DEFAULT_HINT_COST,
  gradeStep,
  hasShownOptions,
  resolveNextStep,
  RUN_MESSAGES,
  runPercentBase,
  STEP_KINDS,
  shownOrder,
  stepSkill,
  toThousandths,
  validateAnswer,
  type AnswerInput,
  type AnswerResult,
  type HintResult,
  type NextAction,
  type NextStep,
  type PlayerArtifact,
  type PlayerStep,
  type RunAnswer,
  type RunDecision,
  type RunState,
  type ScenarioDefinition,
  type ScenarioStep,
  type StartRunInput,
  type StepKind,
  type TechniqueScore,
} from '@tradecraft/shared';
import { techniqueKey, techniqueRef } from '@tradecraft/shared/attack';
import { nowIso } from '../../clock';
import type { Db, DbOrTrx } from '../../db/database';
import type { Run, User } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { consumeRateLimit, MINUTE, type RateLimit } from '../auth/rate-limit';
import {
  countsForCredit,
  decisionSkill,
  parseStepResult,
  parseStoredDefinition,
  runDurationSeconds,
  runFigures,
  skillScores,
} from './run-figures';
import {
  claimAnswer,
  endRun as endRunRow,
  findRun,
  findRunWithScenario,
  findScenarioDefinition,
  findScenarioForRun,
  insertDecision,
  insertReview,
  insertRun,
  listDecisions,
  moveRunReturningRun,
  openHint,
  type RunDecisionRow,
  type RunWithScenario,
  type ScenarioForRun,
} from './runs.repository';

// A run whose scenario was deleted after it started keeps its recorded data (GET shows it, End closes it),
// but it cannot be played on: answers and moves get 410 Gone with RUN_MESSAGES.scenarioDeleted.
const gone = (message: string) => new AppError(410, message);

const HINT_MESSAGES = {
  noHint: 'This step has no hint.',
} as const;

interface LoadedScenario {
  row: ScenarioForRun;
  definition: ScenarioDefinition;
  deleted: boolean;
}

// Every answer and move needs its scenario's parsed definition; reading and parsing the whole text each time
// cost more than the rest of the request. Parsed definitions are kept by scenario id, content hash and change
// time (a changed scenario has a new hash and time, so it is never served from a stale parse), shared between
// requests and never mutated.
const DEFINITIONS_KEPT = 64;
const definitions = new Map<string, ScenarioDefinition>();

async function definitionOf(db: DbOrTrx, row: ScenarioForRun): Promise<ScenarioDefinition> {
  const key = `${row.id}\n${row.content_hash}\n${row.updated_at}`;
  const kept = definitions.get(key);
  if (kept) return kept;
  const text = await findScenarioDefinition(db, row.id);
  // The scenarios feature stores the checked, normalised definition (every option an object).
  const definition = (text === undefined ? null : parseStoredDefinition(text)) ?? {
    ...emptyDefinition,
    name: row.name,
  };
  definitions.set(key, definition);
  if (definitions.size > DEFINITIONS_KEPT) definitions.delete(definitions.keys().next().value!);
  return definition;
}

async function loadedScenario(db: DbOrTrx, row: ScenarioForRun | undefined): Promise<LoadedScenario | undefined> {
  if (!row) return undefined;
  return { row, definition: await definitionOf(db, row), deleted: row.deleted_at !== null };
}

async function loadScenario(db: DbOrTrx, id: string): Promise<LoadedScenario | undefined> {
  return loadedScenario(db, await findScenarioForRun(db, id));
}

const emptyDefinition: ScenarioDefinition = { name: '', type: '', difficulty: 1, description: '', steps: [] };

const nextActionOf = (next: NextStep): NextAction => (next.kind === 'step' ? 'next' : next.kind);

/** The order a run shows a step's options in (identity for kinds without options). */
function orderOf(runId: string, step: ScenarioStep): number[] {
  return hasShownOptions(step) ? shownOrder(runId, step.id, step.options.length) : [];
}

/** The hint cost of a step: its own, else the scenario's, else the default. */
function hintCostOf(definition: ScenarioDefinition, step: ScenarioStep): number {
  return step.hint_cost ?? definition.hint_cost ?? DEFAULT_HINT_COST;
}

function playerArtifacts(step: ScenarioStep): PlayerArtifact[] {
  return (step.artifacts ?? []).map((artifact, index) => ({
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
    ...(artifact.tlp ? { tlp: artifact.tlp } : {}),
    // The graded artifact of a grade-source step never shows a grade (the checker refuses one anyway).
    ...(artifact.admiralty && !(step.kind === 'grade-source' && step.artifact === index)
      ? { admiralty: artifact.admiralty }
      : {}),
  }));
}

/**
 * The step as a trainee may see it before answering: no key of any kind (correct flags, credits, accepted
 * terms, outcomes, grades, matrix marks, model answer), no next steps, no feedback, the hint only once opened,
 * and options in the run's own shuffle.
 */
function redactStep(run: Run, definition: ScenarioDefinition, step: ScenarioStep): PlayerStep {
  const technique = techniqueKey(step.mitre_attack);
  const hintText = step.hint?.trim() ? step.hint : null;
  const opened = run.hint_opened === 1 && hintText !== null;
  const common = {
    id: step.id,
    position: definition.steps.findIndex((candidate) => candidate.id === step.id) + 1,
    title: step.title,
    description: step.description,
    artifacts: playerArtifacts(step),
    hint: opened ? hintText : null,
    hintState: {
      available: hintText !== null,
      opened,
      cost: hintCostOf(definition, step),
      text: opened ? hintText : null,
    },
    technique: technique ? techniqueRef(technique) : null,
    skill: stepSkill(step),
    scored: step.scored !== false,
  };
  switch (step.kind) {
    case 'choice':
    case 'multi':
    case 'rank':
      return {
        ...common,
        kind: step.kind,
        options: orderOf(run.id, step).map((file) => ({ text: step.options[file]?.text ?? '' })),
      };
    case 'estimate':
      return {
        ...common,
        kind: 'estimate',
        statement: step.statement,
        askConfidence: step.ask_confidence === true,
        options: [],
      };
    case 'grade-source':
      return { ...common, kind: 'grade-source', artifact: step.artifact, options: [] };
    case 'extract':
      return {
        ...common,
        kind: 'extract',
        fields: step.fields.map((field) => ({ label: field.label, type: field.type })),
        options: [],
      };
    case 'ach':
      return {
        ...common,
        kind: 'ach',
        hypotheses: [...step.hypotheses],
        evidence: step.evidence.map((row) => row.text),
        options: [],
      };
    case 'write':
      return {
        ...common,
        kind: 'write',
        prompt: step.prompt,
        maxWords: step.max_words,
        checks: {
          tlp: step.checks?.tlp === true,
          estimativeLanguage: step.checks?.estimative_language === true,
          mustMention: [...(step.checks?.must_mention ?? [])],
        },
        rubric: step.rubric.map((criterion) => ({ criterion: criterion.criterion, points: criterion.points })),
        options: [],
      };
  }
}

/** The way on from the current, answered step, by its kind. */
function nextFrom(
  steps: readonly ScenarioStep[],
  step: ScenarioStep,
  run: Pick<Run, 'last_option_index' | 'last_credit_thousandths'>,
): NextStep {
  if (step.kind === 'choice') return resolveNextStep(steps, step.id, run.last_option_index ?? -1);
  return resolveNextStep(steps, step.id, { credit: (run.last_credit_thousandths ?? 0) / 1000 });
}

/** The answer shown for the current step (on the answer itself and again on resume). */
function currentAnswer(
  run: Run,
  steps: readonly ScenarioStep[],
  step: ScenarioStep,
  last: RunDecisionRow | undefined,
): RunAnswer | null {
  if (run.current_answered !== 1 || run.last_option_index === null) return null;
  if (step.kind === 'choice' && !step.options[run.last_option_index]) return null;
  const order = orderOf(run.id, step);
  let result = last && last.step_id === step.id ? parseStepResult(last.result) : null;
  let feedback = last && last.step_id === step.id ? last.feedback : '';
  if (!result) {
    // An answer given before step kinds existed: a choice, graded again from its option.
    if (step.kind !== 'choice') return null;
    const graded = gradeStep(
      step,
      { stepId: step.id, timeMs: 0, optionIndex: order.indexOf(run.last_option_index) },
      {
        order,
        hintOpened: false,
        hintCost: 0,
        firstSubmission: last?.first_submission === 1,
      },
    );
    result = graded.result;
    feedback ||= graded.feedback;
  }
  return {
    optionIndex: result.kind === 'choice' ? result.chosenIndex : -1,
    correct: result.rawCredit >= 1,
    correctOptionIndex: result.kind === 'choice' ? result.correctIndex : -1,
    feedback,
    nextAction: nextActionOf(nextFrom(steps, step, run)),
    credit: result.credit,
    result,
  };
}

/** Credit per technique over counted decisions. */
function techniqueScores(decisions: readonly RunDecisionRow[]): TechniqueScore[] {
  const tally = new Map<string, { count: number; attempts: number; thousandths: number }>();
  for (const decision of decisions) {
    const id = techniqueKey(decision.technique);
    if (!id || !countsForCredit(decision)) continue;
    const current = tally.get(id) ?? { count: 0, attempts: 0, thousandths: 0 };
    tally.set(id, {
      count: current.count + (decision.correct === 1 ? 1 : 0),
      attempts: current.attempts + 1,
      thousandths: current.thousandths + decision.credit_thousandths,
    });
  }
  return [...tally.entries()]
    .map(([id, figures]) => ({
      ...techniqueRef(id),
      count: figures.count,
      attempts: figures.attempts,
      credit: figures.thousandths / 1000,
    }))
    .sort((a, b) => b.credit - a.credit || a.id.localeCompare(b.id));
}

/**
 * A decision as the timeline shows it. Without `withResult` its recorded result is left out (parsed only for a
 * written answer's review status): see runDecisionSchema.result.
 */
function toRunDecision(decision: RunDecisionRow, stepTitle: string | null, withResult: boolean): RunDecision {
  const knownKind = (STEP_KINDS as readonly string[]).includes(decision.kind) && decision.kind !== 'write';
  const result = withResult || !knownKind ? parseStepResult(decision.result) : null;
  return {
    seq: decision.seq,
    stepId: decision.step_id,
    stepTitle,
    optionIndex: decision.option_index,
    decision: decision.decision,
    correct: decision.correct === 1,
    feedback: decision.feedback,
    technique: decision.technique ? techniqueRef(decision.technique) : null,
    timeMs: decision.time_ms,
    at: decision.at,
    kind: result?.kind ?? (knownKind ? (decision.kind as StepKind) : 'choice'),
    skill: decisionSkill(decision),
    credit: decision.credit_thousandths / 1000,
    firstSubmission: decision.first_submission === 1,
    scored: decision.scored === 1,
    hintUsed: decision.hint_used === 1,
    reviewStatus: result?.kind === 'write' ? (result.review?.status ?? null) : null,
    result: withResult ? result : null,
  };
}

/** The whole state of a run for the player, the end screen and resume. */
function describeRun(
  run: Run,
  decisions: RunDecisionRow[],
  scenario: LoadedScenario | undefined,
  viewer: User,
  view: 'read' | 'play' = 'read',
): RunState {
  // The player's own responses leave the earlier results out while the run goes on; a finished run shows them.
  const withResults = view === 'read' || run.status !== 'in_progress';
  const steps = scenario?.definition.steps ?? [];
  const stepById = new Map(steps.map((step) => [step.id, step]));
  const playable = run.status === 'in_progress' && scenario !== undefined && !scenario.deleted;
  const current = playable ? stepById.get(run.current_step_id) : undefined;
  const correctCount = decisions.filter((decision) => decision.correct === 1).length;
  const figures = runFigures(run);

  return {
    id: run.id,
    scenarioId: run.scenario_id,
    scenarioName: run.scenario_name,
    stepCount: run.step_count,
    status: run.status,
    score: figures.score,
    scoreThousandths: figures.scoreThousandths,
    // The percent of a run in progress: what ending it now would show.
    scorePercent: figures.scorePercent ?? 0,
    percentBase: figures.percentBase,
    playedSteps: run.played_steps,
    bestPathSteps: run.best_path_steps,
    result: figures.result,
    pendingReviews: run.pending_reviews,
    awaitingReview: run.pending_reviews > 0,
    correctCount,
    incorrectCount: decisions.length - correctCount,
    techniqueScores: techniqueScores(decisions),
    skillScores: skillScores(decisions),
    startedAt: run.started_at,
    finishedAt: run.finished_at,
    durationSeconds: runDurationSeconds(run, nowIso()),
    scenarioDeleted: scenario === undefined || scenario.deleted,
    readOnly: run.user_id !== viewer.id,
    currentStep: current && scenario ? redactStep(run, scenario.definition, current) : null,
    answer: current ? currentAnswer(run, steps, current, decisions.at(-1)) : null,
    timeline: decisions.map((decision) =>
      toRunDecision(decision, stepById.get(decision.step_id)?.title ?? null, withResults),
    ),
  };
}

/** A run the viewer may read (their own, or anyone's for an admin; 404 for everyone else), with its scenario's columns. */
async function readableRun(db: DbOrTrx, viewer: User, id: string): Promise<RunWithScenario> {
  const found = await findRunWithScenario(db, id);
  if (!found || (found.run.user_id !== viewer.id && viewer.role !== 'admin')) throw notFound(RUN_MESSAGES.runNotFound);
  return found;
}

/** A run the viewer may play: only their own (an admin reading someone's run gets 403). */
async function playableRun(db: DbOrTrx, viewer: User, id: string): Promise<RunWithScenario> {
  const found = await readableRun(db, viewer, id);
  if (found.run.user_id !== viewer.id) throw forbidden(RUN_MESSAGES.notOwner);
  if (found.run.status !== 'in_progress') throw conflict(RUN_MESSAGES.finished);
  return found;
}

/** The scenario a run plays on, refusing when it was deleted since the run started. */
async function liveScenario(db: DbOrTrx, found: RunWithScenario): Promise<LoadedScenario> {
  const scenario = await loadedScenario(db, found.scenario);
  if (!scenario || scenario.deleted) throw gone(RUN_MESSAGES.scenarioDeleted);
  return scenario;
}

/** Why a conditional update on the run found nothing to change, read again after the race was lost. */
async function lostRaceMessage(db: DbOrTrx, runId: string, fallback: string): Promise<string> {
  const fresh = await findRun(db, runId);
  return fresh && fresh.status !== 'in_progress' ? RUN_MESSAGES.finished : fallback;
}

/** Runs one user may start per minute (RUN_STARTS_PER_MINUTE): each start writes a run, so a script cannot flood the table. */
export const runStartsLimit = (perMinute: number): RateLimit => ({
  name: 'run-starts',
  max: perMinute,
  windowMs: MINUTE,
  message: 'You have started too many runs in the last minute. Please wait a minute and try again.',
});

/** Starts a run at the scenario's first step, recording its name, step count and best path as they are now. */
async function startRunOn(db: Db, user: User, input: StartRunInput, limit: RateLimit): Promise<RunState> {
  await consumeRateLimit(db, limit, user.id);
  const scenario = await loadScenario(db, input.scenarioId);
  if (!scenario || scenario.deleted) throw notFound(RUN_MESSAGES.scenarioNotFound);
  const first = scenario.definition.steps[0];
  if (!first) throw conflict(RUN_MESSAGES.scenarioChanged);
  const now = nowIso();
  const bestPathSteps = bestPath(scenario.definition.steps).scoredSteps;
  const run: Run = {
    id: randomUUID(),
    user_id: user.id,
    scenario_id: scenario.row.id,
    scenario_name: scenario.row.name,
    step_count: scenario.definition.steps.length,
    current_step_id: first.id,
    current_answered: 0,
    last_option_index: null,
    score_thousandths: 0,
    percent_base: runPercentBase({ status: 'in_progress', playedSteps: 0, bestPathSteps }),
    played_steps: 0,
    best_path_steps: bestPathSteps,
    pending_reviews: 0,
    hint_opened: 0,
    visit_submitted: 0,
    last_credit_thousandths: null,
    status: 'in_progress',
    started_at: now,
    finished_at: null,
    updated_at: now,
  };
  await insertRun(db, run);
  return describeRun(run, [], scenario, user);
}

async function getRunOn(db: Db, viewer: User, id: string): Promise<RunState> {
  const found = await readableRun(db, viewer, id);
  const [decisions, scenario] = await Promise.all([listDecisions(db, id), loadedScenario(db, found.scenario)]);
  return describeRun(found.run, decisions, scenario, viewer);
}

/**
 * Answers the run's current step. The server checks the answer fits the step, decides the credit (the visit's
 * first submission only, charged for a hint opened before it), the revealed key and the feedback; the decision,
 * the score and any review are written in one transaction, and only one answer per step is taken.
 */
async function answerStepOn(db: Db, user: User, id: string, input: AnswerInput): Promise<AnswerResult> {
  const found = await playableRun(db, user, id);
  const { run } = found;
  const scenario = await liveScenario(db, found);
  if (input.stepId !== run.current_step_id) throw conflict(RUN_MESSAGES.notCurrentStep);
  if (run.current_answered === 1) throw conflict(RUN_MESSAGES.alreadyAnswered);
  const { definition } = scenario;
  const step = definition.steps.find((candidate) => candidate.id === run.current_step_id);
  if (!step) throw conflict(RUN_MESSAGES.scenarioChanged);
  const malformed = validateAnswer(step, input);
  if (malformed) throw badRequest(malformed);
  const technique = techniqueKey(step.mitre_attack);
  const scored = step.scored !== false;
  const firstSubmission = run.visit_submitted === 0;
  const graded = gradeStep(step, input, {
    order: orderOf(run.id, step),
    hintOpened: run.hint_opened === 1,
    hintCost: hintCostOf(definition, step),
    firstSubmission,
  });
  const counted = firstSubmission && scored;
  const pendingReview = graded.result.kind === 'write' && graded.result.review !== null;
  const playedSteps = run.played_steps + (counted ? 1 : 0);

  const { answered, decisions } = await db.transaction().execute(async (trx) => {
    const at = nowIso();
    // One statement claims the step and writes the figures decided above; it finds nothing to change when
    // another answer, a hint or a move changed the run since it was read.
    const claimed = await claimAnswer(trx, run, {
      score_thousandths: run.score_thousandths + graded.earnedThousandths,
      played_steps: playedSteps,
      percent_base: runPercentBase({ status: 'in_progress', playedSteps, bestPathSteps: run.best_path_steps }),
      pending_reviews: run.pending_reviews + (pendingReview ? 1 : 0),
      last_option_index: graded.fileOptionIndex,
      last_credit_thousandths: graded.rawThousandths,
      updated_at: at,
    });
    if (!claimed) throw conflict(await lostRaceMessage(trx, run.id, RUN_MESSAGES.alreadyAnswered));
    // Read under the claim, so no other answer to this run can add a decision in between.
    const earlier = await listDecisions(trx, run.id);
    const decision = await insertDecision(trx, {
      run_id: run.id,
      seq: (earlier.at(-1)?.seq ?? 0) + 1,
      step_id: step.id,
      option_index: graded.fileOptionIndex,
      correct: graded.rawThousandths >= 1000 ? 1 : 0,
      decision: graded.decision,
      feedback: graded.feedback,
      technique,
      time_ms: input.timeMs,
      at,
      kind: step.kind,
      skill: stepSkill(step),
      credit_thousandths: graded.earnedThousandths,
      first_submission: firstSubmission ? 1 : 0,
      scored: scored ? 1 : 0,
      hint_used: run.hint_opened,
      result: JSON.stringify(graded.result),
    });
    if (pendingReview) {
      await insertReview(trx, {
        decision_id: decision.id,
        run_id: run.id,
        user_id: run.user_id,
        scenario_id: run.scenario_id,
        step_id: step.id,
        status: 'pending',
        auto_thousandths: graded.earnedThousandths,
        hint_cost_thousandths: graded.result.hintCharged ? toThousandths(hintCostOf(definition, step)) : 0,
        submitted_at: at,
      });
    }
    return { answered: claimed, decisions: [...earlier, decision] };
  });

  // The run as this answer left it, drawn with the scenario and decisions already loaded above.
  const state = describeRun(answered, decisions, scenario, user, 'play');
  const shown = state.answer;
  if (!shown) throw conflict(RUN_MESSAGES.scenarioChanged);
  return {
    correct: shown.correct,
    feedback: shown.feedback,
    nextAction: shown.nextAction,
    score: state.score,
    credit: shown.credit,
    result: shown.result,
    run: state,
  };
}

/**
 * Opens the current step's hint and records it. Opened before the visit's first submission on a scored step,
 * it charges the step's hint cost on that submission; opened after, it is free.
 */
async function openHintOn(db: Db, user: User, id: string, stepId: string): Promise<HintResult> {
  const found = await playableRun(db, user, id);
  const { run } = found;
  const scenario = await liveScenario(db, found);
  if (stepId !== run.current_step_id) throw conflict(RUN_MESSAGES.notCurrentStep);
  const step = scenario.definition.steps.find((candidate) => candidate.id === run.current_step_id);
  if (!step) throw conflict(RUN_MESSAGES.scenarioChanged);
  const hint = step.hint?.trim();
  if (!hint) throw notFound(HINT_MESSAGES.noHint);
  const cost = hintCostOf(scenario.definition, step);
  const charged = run.visit_submitted === 0 && step.scored !== false && cost > 0;
  const opened = await openHint(db, { runId: run.id, stepId: step.id, at: nowIso() });
  if (!opened) throw conflict(await lostRaceMessage(db, run.id, RUN_MESSAGES.notCurrentStep));
  const state = describeRun(opened, await listDecisions(db, run.id), scenario, user, 'play');
  return { hint: step.hint ?? hint, cost: charged ? cost : 0, charged, run: state };
}

/**
 * Moves on after an answer by the shared step-flow rule: to the named or following step (or a kind's `below`
 * consequence), back to the same step for a Retry, or past the last step to completion.
 */
async function moveOnOn(db: Db, user: User, id: string): Promise<RunState> {
  const found = await playableRun(db, user, id);
  const { run } = found;
  const scenario = await liveScenario(db, found);
  if (run.current_answered !== 1 || run.last_option_index === null) throw conflict(RUN_MESSAGES.notAnswered);
  const steps = scenario.definition.steps;
  const step = steps.find((candidate) => candidate.id === run.current_step_id);
  if (!step || (step.kind === 'choice' && !step.options[run.last_option_index]))
    throw conflict(RUN_MESSAGES.scenarioChanged);

  const next = nextFrom(steps, step, run);
  const moved = await moveRunReturningRun(db, {
    runId: run.id,
    fromStepId: step.id,
    optionIndex: run.last_option_index,
    to: next,
    percentBase: runPercentBase({
      status: 'completed',
      playedSteps: run.played_steps,
      bestPathSteps: run.best_path_steps,
    }),
    at: nowIso(),
  });
  if (!moved) throw conflict(await lostRaceMessage(db, run.id, RUN_MESSAGES.notAnswered));
  return describeRun(moved, await listDecisions(db, run.id), scenario, user, 'play');
}

/** End Simulation: finishes at once with status ended; the score so far stays, over at least the best path. */
async function endRunOn(db: Db, user: User, id: string): Promise<RunState> {
  const found = await playableRun(db, user, id);
  const { run } = found;
  const ended = await endRunRow(db, {
    runId: run.id,
    playedSteps: run.played_steps,
    percentBase: runPercentBase({ status: 'ended', playedSteps: run.played_steps, bestPathSteps: run.best_path_steps }),
    at: nowIso(),
  });
  if (!ended) throw conflict(await lostRaceMessage(db, run.id, RUN_MESSAGES.alreadyAnswered));
  const [decisions, scenario] = await Promise.all([listDecisions(db, run.id), loadedScenario(db, found.scenario)]);
  return describeRun(ended, decisions, scenario, user);
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

export const openStepHint = (db: Db, user: User, id: string, stepId: string): Promise<HintResult> =>
  db.connection().execute((connection) => openHintOn(connection, user, id, stepId));

export const moveOn = (db: Db, user: User, id: string): Promise<RunState> =>
  db.connection().execute((connection) => moveOnOn(connection, user, id));

export const endRun = (db: Db, user: User, id: string): Promise<RunState> =>
  db.connection().execute((connection) => endRunOn(connection, user, id));
