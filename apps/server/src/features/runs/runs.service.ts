import { BoundedMap } from '../../bounded-map';
import { randomUUID } from 'node:crypto';
import {
  bestPath,
  countVerdicts,
  gradeStep,
  isMissedVerdict,
  missedCount,
  resolveNextStep,
  RUN_MESSAGES,
  runPercentBase,
  STEP_KINDS,
  stepSkill,
  toThousandths,
  validateAnswer,
  type AnswerInput,
  type AnswerResult,
  type HintResult,
  type NextAction,
  type NextStep,
  type RunAnswer,
  type RunDecision,
  type RunState,
  type ScenarioDefinition,
  type ScenarioStep,
  type StartRunInput,
  type StepKind,
  type TechniqueScore,
  type Debrief,
  type DebriefTechnique,
  type PracticeRecord,
  type PracticeState,
  type StartRunResponse,
} from '@tradecraft/shared';
import { techniqueKey, techniqueRef } from '@tradecraft/shared/attack';
import { hintCostOf, playerStepOf, shownOptionOrder } from '@tradecraft/shared/player';
import { nowIso } from '../../clock';
import type { Db, DbOrTrx } from '../../db/database';
import { withConnection, withTransaction } from '../../db/held-connection';
import type { Run, User } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { isUniqueViolation } from '../../db/errors';
import { consumeRateLimit, MINUTE, type RateLimit } from '../auth/rate-limit';
import type { RunJournal } from '../../plugins/run-journal';
import { insertNotifications, notifyRecipients, REVIEW_PENDING_KIND } from '../notifications/notifications.service';
import { listAdminIds } from '../users/users.service';
import { answeredEntry, finishedEntry, journalled, journalRunOf } from './journal-entries';
import {
  countsForCredit,
  decisionSkill,
  parseStepResult,
  parseStoredDefinition,
  runDurationSeconds,
  runFigures,
  resultVerdict,
  skillScores,
  verdictOf,
} from './run-figures';
import {
  claimAnswer,
  endRun as endRunRow,
  findRun,
  findRunWithScenario,
  findVersionDefinition,
  findScenarioForRun,
  insertDecision,
  insertReview,
  insertRun,
  listDecisions,
  listPlayDecisions,
  moveRunReturningRun,
  openHint,
  type RunDecisionRow,
  type RunWithScenario,
  type ScenarioForRun,
  findLatestRunOf,
  findRunInProgressOf,
  reopenRun,
  insertPractice,
  findPractice,
  listAnsweredPractice,
  answerPractice,
  type PracticeRow,
} from './runs.repository';

// A run whose scenario was deleted after it started keeps its recorded data (GET shows it, End closes it),
// but it cannot be played on: answers and moves get 410 Gone with RUN_MESSAGES.scenarioDeleted.
const gone = (message: string) => new AppError(410, message);

const HINT_MESSAGES = {
  noHint: 'This step has no hint.',
} as const;

interface LoadedScenario {
  row: ScenarioForRun;
  /** The version this run plays (or a new run would start on); null when there is none. */
  versionId: string | null;
  definition: ScenarioDefinition;
  deleted: boolean;
}

// Every answer and move needs its run's version's parsed definition; reading and parsing the whole text each time
// cost more than the rest of the request. A published version never changes, so parsed definitions are kept by
// version id alone, shared between requests and never mutated. Runs never play a draft.
const DEFINITIONS_KEPT = 64;
const definitions = new BoundedMap<string, ScenarioDefinition>(DEFINITIONS_KEPT);

async function definitionOf(db: DbOrTrx, row: ScenarioForRun, versionId: string | null): Promise<ScenarioDefinition> {
  if (versionId === null) return { ...emptyDefinition, name: row.name };
  const kept = definitions.get(versionId);
  if (kept) return kept;
  const text = await findVersionDefinition(db, versionId);
  // The scenarios feature stores a published version's checked, normalised definition (every option an object).
  const definition = (text === undefined ? null : parseStoredDefinition(text)) ?? {
    ...emptyDefinition,
    name: row.name,
  };
  definitions.set(versionId, definition);
  return definition;
}

/** The scenario as a run plays it: the run's pinned version, or (no run yet) the current published version. */
async function loadedScenario(
  db: DbOrTrx,
  row: ScenarioForRun | undefined,
  run: Pick<Run, 'version_id'> | null,
): Promise<LoadedScenario | undefined> {
  if (!row) return undefined;
  const versionId = run ? (run.version_id ?? row.current_version_id) : row.current_version_id;
  return { row, versionId, definition: await definitionOf(db, row, versionId), deleted: row.deleted_at !== null };
}

async function loadScenario(
  db: DbOrTrx,
  id: string,
  run: Pick<Run, 'version_id'> | null,
): Promise<LoadedScenario | undefined> {
  return loadedScenario(db, await findScenarioForRun(db, id), run);
}

const emptyDefinition: ScenarioDefinition = { name: '', type: '', difficulty: 1, description: '', steps: [] };

const nextActionOf = (next: NextStep): NextAction => (next.kind === 'step' ? 'next' : next.kind);

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
  const order = shownOptionOrder(run.id, step);
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
    verdict: last && last.step_id === step.id ? verdictOf(last, result) : resultVerdict(result),
    hintUsed: last && last.step_id === step.id ? last.hint_used === 1 : result.hintCharged,
    result,
  };
}

/** Credit per technique over counted decisions; `count` is the right first answers (by their verdicts). */
function techniqueScores(decisions: readonly RunDecisionRow[]): TechniqueScore[] {
  const tally = new Map<string, { count: number; attempts: number; thousandths: number }>();
  for (const decision of decisions) {
    const id = techniqueKey(decision.technique);
    if (!id || !countsForCredit(decision)) continue;
    const current = tally.get(id) ?? { count: 0, attempts: 0, thousandths: 0 };
    tally.set(id, {
      count: current.count + (verdictOf(decision) === 'right' ? 1 : 0),
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
    verdict: verdictOf(decision, withResult || !knownKind ? result : undefined),
    result: withResult ? result : null,
  };
}

/** What describing a finished run needs beyond its row and decisions. */
interface FinishedRunContext {
  /** No later run of the scenario was started (an ended run can then be resumed). */
  latest: boolean;
  practice: readonly PracticeRow[];
}

/** What describing a run works out from its version's steps alone: its steps by id, the best path on from each. */
interface StepsIndex {
  stepById: ReadonlyMap<string, ScenarioStep>;
  /** The steps left on the best path from a step (that one included), or null when that path does not finish. */
  stepsLeft: (stepId: string) => number | null;
}

// Kept with the parsed definitions (definitionOf), which are shared and never mutated: every answer and move would
// otherwise index the steps and walk the best path again.
const stepsIndexes = new WeakMap<readonly ScenarioStep[], StepsIndex>();

function stepsIndexOf(steps: readonly ScenarioStep[]): StepsIndex {
  let index = stepsIndexes.get(steps);
  if (!index) {
    const left = new Map<string, number | null>();
    index = {
      stepById: new Map(steps.map((step) => [step.id, step])),
      stepsLeft: (stepId) => {
        let count = left.get(stepId);
        if (count === undefined) {
          const path = bestPath(steps, stepId);
          count = path.finishes ? path.stepIds.length : null;
          left.set(stepId, count);
        }
        return count;
      },
    };
    stepsIndexes.set(steps, index);
  }
  return index;
}

/** The whole state of a run for the player, the end screen and resume. */
function describeRun(
  run: Run,
  decisions: RunDecisionRow[],
  scenario: LoadedScenario | undefined,
  viewer: User,
  view: 'read' | 'play' = 'read',
  finished: FinishedRunContext = { latest: false, practice: [] },
): RunState {
  // The player's own responses leave the earlier results out while the run goes on; a finished run shows them.
  const withResults = view === 'read' || run.status !== 'in_progress';
  const steps = scenario?.definition.steps ?? [];
  const { stepById, stepsLeft } = stepsIndexOf(steps);
  const live = scenario !== undefined && !scenario.deleted;
  const playable = run.status === 'in_progress' && live;
  const current = playable ? stepById.get(run.current_step_id) : undefined;
  const verdicts = countVerdicts(decisions.map((decision) => verdictOf(decision)));
  const figures = runFigures(run);
  const owner = run.user_id === viewer.id;
  const resumable = owner && live && (run.status === 'in_progress' || (run.status === 'ended' && finished.latest));

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
    correctCount: verdicts.right,
    incorrectCount: missedCount(verdicts),
    verdicts,
    techniqueScores: techniqueScores(decisions),
    skillScores: skillScores(decisions),
    startedAt: run.started_at,
    finishedAt: run.finished_at,
    durationSeconds: runDurationSeconds(run, nowIso()),
    scenarioDeleted: scenario === undefined || scenario.deleted,
    readOnly: !owner,
    stepNumber: stepNumberOf(run, decisions),
    stepsLeftOnBestPath: current ? stepsLeft(current.id) : null,
    resumable,
    debrief:
      run.status === 'in_progress'
        ? null
        : debriefOf(run, decisions, scenario, {
            practice: finished.practice,
            canPractise: owner && live,
            canResume: resumable,
          }),
    currentStep:
      current && scenario
        ? playerStepOf(
            { orderSeed: run.id, hintOpened: run.hint_opened === 1, answered: run.current_answered === 1 },
            scenario.definition,
            current,
          )
        : null,
    answer: current ? currentAnswer(run, steps, current, decisions.at(-1)) : null,
    timeline: decisions.map((decision) =>
      toRunDecision(decision, stepById.get(decision.step_id)?.title ?? null, withResults),
    ),
  };
}

async function loadRunState(db: DbOrTrx, run: Run, viewer: User): Promise<RunState> {
  const [decisions, scenario, finished] = await Promise.all([
    listDecisions(db, run.id),
    loadScenario(db, run.scenario_id, run),
    finishedContext(db, run),
  ]);
  return describeRun(run, decisions, scenario, viewer, 'read', finished);
}

/** For a finished run: whether it is still the scenario's latest run, and its practice answers. */
async function finishedContext(db: DbOrTrx, run: Run): Promise<FinishedRunContext> {
  if (run.status === 'in_progress') return { latest: true, practice: [] };
  const [latest, practice] = await Promise.all([
    findLatestRunOf(db, { userId: run.user_id, scenarioId: run.scenario_id }),
    listAnsweredPractice(db, run.id),
  ]);
  return { latest: latest?.id === run.id, practice };
}

/** "Step N": the visits answered before the current one, plus one (a Retry stays on its visit). */
function stepNumberOf(run: Run, decisions: readonly RunDecisionRow[]): number {
  const visitsAnswered = decisions.filter((decision) => decision.first_submission === 1).length;
  const currentVisitAnswered = run.status === 'in_progress' && run.visit_submitted === 1 ? 1 : 0;
  return Math.max(1, visitsAnswered - currentVisitAnswered + 1);
}

const stepRef = (stepById: ReadonlyMap<string, ScenarioStep>, stepId: string) => ({
  stepId,
  stepTitle: stepById.get(stepId)?.title ?? stepId,
});

/**
 * A missed step: its first answer earned less than full credit from the answer itself, so a right answer after a
 * hint is not missed, and a written answer awaiting review is not missed yet (verdict.ts isMissedVerdict).
 */
function isMissed(decision: RunDecisionRow): boolean {
  return isMissedVerdict(verdictOf(decision));
}

/**
 * The debrief of a finished run: every technique met with its right answers and misses, the path taken beside
 * the best path, and the missed steps that can be practised. A run that can still be resumed shows the best
 * path only over steps already answered, so it gives away no key of a step still to play.
 */
function debriefOf(
  run: Run,
  decisions: readonly RunDecisionRow[],
  scenario: LoadedScenario | undefined,
  options: { practice: readonly PracticeRow[]; canPractise: boolean; canResume: boolean },
): Debrief {
  const steps = scenario?.definition.steps ?? [];
  const { stepById } = stepsIndexOf(steps);

  const techniques = new Map<
    string,
    { right: number; answered: number; thousandths: number; missed: DebriefTechnique['missed'] }
  >();
  for (const decision of decisions) {
    const id = techniqueKey(decision.technique);
    if (!id) continue;
    const tally = techniques.get(id) ?? { right: 0, answered: 0, thousandths: 0, missed: [] };
    if (countsForCredit(decision)) {
      tally.answered += 1;
      tally.thousandths += decision.credit_thousandths;
      if (verdictOf(decision) === 'right') tally.right += 1;
      if (isMissed(decision)) tally.missed.push({ seq: decision.seq, ...stepRef(stepById, decision.step_id) });
    }
    techniques.set(id, tally);
  }

  const visits = decisions.filter((decision) => decision.first_submission === 1);
  const pathTaken: Debrief['pathTaken'] = visits.map((decision) => ({
    seq: decision.seq,
    ...stepRef(stepById, decision.step_id),
  }));
  // An ended run stopped on a step it had not answered yet: the path shows where it stopped.
  if (run.status === 'ended' && run.visit_submitted === 0 && stepById.has(run.current_step_id))
    pathTaken.push({ seq: null, ...stepRef(stepById, run.current_step_id) });

  const answered = new Set(visits.map((decision) => decision.step_id));
  const best = steps.length > 0 ? bestPath(steps).stepIds : [];
  let shown = best.length;
  if (options.canResume) {
    const firstUnanswered = best.findIndex((stepId) => !answered.has(stepId));
    if (firstUnanswered >= 0) shown = firstUnanswered;
  }
  const taken = new Set(pathTaken.map((step) => step.stepId));

  const practisable = options.canPractise
    ? [
        ...new Set(
          decisions
            .filter((decision) => isMissed(decision) && stepById.get(decision.step_id)?.kind !== 'write')
            .filter((decision) => stepById.has(decision.step_id))
            .map((decision) => decision.step_id),
        ),
      ]
    : [];

  return {
    techniques: [...techniques.entries()]
      .map(([id, tally]) => ({
        ...techniqueRef(id),
        right: tally.right,
        answered: tally.answered,
        credit: tally.thousandths / 1000,
        missed: tally.missed,
      }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    pathTaken,
    bestPath: best.slice(0, shown).map((stepId) => ({ ...stepRef(stepById, stepId), taken: taken.has(stepId) })),
    bestPathHiddenSteps: best.length - shown,
    practisable,
    practice: options.practice.map(toPracticeRecord),
  };
}

function toPracticeRecord(row: PracticeRow): PracticeRecord {
  return {
    id: row.id,
    stepId: row.step_id,
    answeredAt: row.answered_at ?? row.started_at,
    credit: (row.credit_thousandths ?? 0) / 1000,
    correct: (row.credit_thousandths ?? 0) >= 1000,
    decision: row.decision ?? '',
    feedback: row.feedback ?? '',
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
  const scenario = await loadedScenario(db, found.scenario, found.run);
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

/**
 * Starts a run at the scenario's first step, recording its name, step count and best path as they are now.
 * A trainee has one unfinished run per scenario: without `startOver` a start continues it (an ended run goes back
 * in progress where it stopped); with `startOver` the run in progress is ended (it stays in history) and a new
 * one starts. A unique index keeps one run in progress per trainee and scenario when two starts race.
 */
async function startRunOn(
  db: Db,
  user: User,
  input: StartRunInput,
  limit: RateLimit,
  journal: RunJournal | undefined,
): Promise<StartRunResponse> {
  // A new run starts on the current published version and keeps it to the end, whatever is published later.
  const scenario = await loadScenario(db, input.scenarioId, null);
  if (!scenario || scenario.deleted || scenario.versionId === null) throw notFound(RUN_MESSAGES.scenarioNotFound);
  const of = { userId: user.id, scenarioId: scenario.row.id };
  if (!input.startOver) {
    const latest = await findLatestRunOf(db, of);
    if (latest && latest.status !== 'completed') {
      const continued = latest.status === 'ended' ? await reopenEnded(db, latest, user, journal) : latest;
      return { run: await loadRunState(db, continued, user), resumed: true };
    }
  }
  await consumeRateLimit(db, limit, user.id);
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
    version_id: scenario.versionId,
  };
  try {
    await withTransaction(db, async (trx) => {
      if (input.startOver) {
        const old = await findRunInProgressOf(trx, of);
        if (old) {
          const ended = await endInProgress(trx, old, now);
          if (journal?.active) await journal.record(trx, { kind: 'ended', run: journalRunOf(ended, user), at: now });
        }
      }
      await insertRun(trx, run);
      if (journal?.active) await journal.record(trx, { kind: 'started', run: journalRunOf(run, user), at: now });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another start of the same scenario won the race: continue the run it started.
    const winner = await findRunInProgressOf(db, of);
    if (!winner) throw error;
    return { run: await loadRunState(db, winner, user), resumed: true };
  }
  return { run: describeRun(run, [], scenario, user), resumed: false };
}

/** Ends a run in progress with the ended percent base; 409 when an answer or another end got there first. */
async function endInProgress(db: DbOrTrx, run: Run, at: string): Promise<Run> {
  const ended = await endRunRow(db, {
    runId: run.id,
    playedSteps: run.played_steps,
    percentBase: runPercentBase({ status: 'ended', playedSteps: run.played_steps, bestPathSteps: run.best_path_steps }),
    at,
  });
  if (!ended) throw conflict(await lostRaceMessage(db, run.id, RUN_MESSAGES.alreadyAnswered));
  return ended;
}

/** Puts the trainee's latest, ended run back in progress where it stopped. */
async function reopenEnded(db: Db, run: Run, user: User, journal: RunJournal | undefined): Promise<Run> {
  try {
    const reopened = await journalled(
      db,
      journal,
      (trx) => reopenRun(trx, { runId: run.id, at: nowIso() }),
      (row) => row && { kind: 'resumed', run: journalRunOf(row, user), at: row.updated_at },
    );
    if (reopened) return reopened;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw conflict(RUN_MESSAGES.newerRunExists);
  }
  // Someone reopened (or ended) it first: read it as it is now.
  const fresh = await findRun(db, run.id);
  if (fresh?.status === 'in_progress') return fresh;
  throw conflict(RUN_MESSAGES.finished);
}

/**
 * Resume: continues an unfinished run at the step where it stopped. An ended run goes back in progress while it
 * is the latest run of its scenario and the scenario still exists; a completed one cannot be resumed.
 */
async function resumeRunOn(db: Db, user: User, id: string, journal: RunJournal | undefined): Promise<RunState> {
  const found = await readableRun(db, user, id);
  const { run } = found;
  if (run.user_id !== user.id) throw forbidden(RUN_MESSAGES.notOwner);
  if (run.status === 'completed') throw conflict(RUN_MESSAGES.completedNotResumable);
  await liveScenario(db, found);
  if (run.status === 'in_progress') return loadRunState(db, run, user);
  const latest = await findLatestRunOf(db, { userId: run.user_id, scenarioId: run.scenario_id });
  if (latest?.id !== run.id) throw conflict(RUN_MESSAGES.newerRunExists);
  return loadRunState(db, await reopenEnded(db, run, user, journal), user);
}

/** Practice starts one trainee may make per minute: each writes a row. */
export const practiceStartsLimit = (perMinute: number): RateLimit => ({
  name: 'practice-starts',
  max: perMinute,
  windowMs: MINUTE,
  message: 'You have started too many practice steps in the last minute. Please wait a minute and try again.',
});

/** The finished run, its live scenario and the step a practice attempt replays, checked for the owner. */
async function practisableStep(db: DbOrTrx, user: User, runId: string, stepId: string) {
  const found = await readableRun(db, user, runId);
  const { run } = found;
  if (run.user_id !== user.id) throw forbidden(RUN_MESSAGES.notOwner);
  if (run.status === 'in_progress') throw conflict(RUN_MESSAGES.practiceWhilePlaying);
  const scenario = await liveScenario(db, found);
  const step = scenario.definition.steps.find((candidate) => candidate.id === stepId);
  const decisions = await listDecisions(db, run.id);
  const missed = decisions.some((decision) => decision.step_id === stepId && isMissed(decision));
  if (!step || step.kind === 'write' || !missed) throw conflict(RUN_MESSAGES.notPractisable);
  return { run, scenario, step };
}

const practiceView = (id: string) => ({ orderSeed: `practice:${id}`, hintOpened: false });

/**
 * "Practise this step": replays a step missed in a finished run. The step is sent as the player shows it before
 * an answer (no key, options in an order of the attempt's own); the attempt is recorded apart from the run.
 */
async function startPracticeOn(
  db: Db,
  user: User,
  runId: string,
  stepId: string,
  limit: RateLimit,
): Promise<PracticeState> {
  const { run, scenario, step } = await practisableStep(db, user, runId, stepId);
  await consumeRateLimit(db, limit, user.id);
  const id = randomUUID();
  await insertPractice(db, { id, run_id: run.id, step_id: step.id, started_at: nowIso() });
  return { id, runId: run.id, step: playerStepOf(practiceView(id), scenario.definition, step), answer: null };
}

/** Grades the one answer of a practice attempt as a first answer without a hint; the run's score never changes. */
async function answerPracticeOn(
  db: Db,
  user: User,
  params: { runId: string; practiceId: string },
  input: AnswerInput,
): Promise<PracticeState> {
  const practice = await findPractice(db, { runId: params.runId, id: params.practiceId });
  const found = await readableRun(db, user, params.runId);
  const { run } = found;
  if (!practice) throw notFound(RUN_MESSAGES.practiceNotFound);
  if (run.user_id !== user.id) throw forbidden(RUN_MESSAGES.notOwner);
  if (practice.answered_at !== null) throw conflict(RUN_MESSAGES.practiceAnswered);
  const scenario = await liveScenario(db, found);
  const step = scenario.definition.steps.find((candidate) => candidate.id === practice.step_id);
  if (!step) throw conflict(RUN_MESSAGES.scenarioChanged);
  if (input.stepId !== step.id) throw conflict(RUN_MESSAGES.notCurrentStep);
  const malformed = validateAnswer(step, input);
  if (malformed) throw badRequest(malformed);
  const view = practiceView(practice.id);
  const graded = gradeStep(step, input, {
    order: shownOptionOrder(view.orderSeed, step),
    hintOpened: false,
    hintCost: 0,
    firstSubmission: true,
  });
  const answered = await answerPractice(db, {
    id: practice.id,
    at: nowIso(),
    credit_thousandths: graded.rawThousandths,
    decision: graded.decision,
    feedback: graded.feedback,
    result: JSON.stringify(graded.result),
    time_ms: input.timeMs,
  });
  if (!answered) throw conflict(RUN_MESSAGES.practiceAnswered);
  return {
    id: practice.id,
    runId: run.id,
    step: playerStepOf({ ...view, answered: true }, scenario.definition, step),
    answer: {
      correct: graded.rawThousandths >= 1000,
      feedback: graded.feedback,
      credit: graded.rawThousandths / 1000,
      result: graded.result,
    },
  };
}

async function getRunOn(db: Db, viewer: User, id: string): Promise<RunState> {
  const found = await readableRun(db, viewer, id);
  const [decisions, scenario, finished] = await Promise.all([
    listDecisions(db, id),
    loadedScenario(db, found.scenario, found.run),
    finishedContext(db, found.run),
  ]);
  return describeRun(found.run, decisions, scenario, viewer, 'read', finished);
}

/**
 * Answers the run's current step. The server checks the answer fits the step, decides the credit (the visit's
 * first submission only, charged for a hint opened before it), the revealed key and the feedback; the decision,
 * the score and any review are written in one transaction, and only one answer per step is taken.
 */
async function answerStepOn(
  db: Db,
  user: User,
  id: string,
  input: AnswerInput,
  journal: RunJournal | undefined,
): Promise<AnswerResult> {
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
    order: shownOptionOrder(run.id, step),
    hintOpened: run.hint_opened === 1,
    hintCost: hintCostOf(definition, step),
    firstSubmission,
  });
  const counted = firstSubmission && scored;
  const pendingReview = graded.result.kind === 'write' && graded.result.review !== null;
  const playedSteps = run.played_steps + (counted ? 1 : 0);

  let reviewers: string[] = [];
  const { answered, decisions } = await withTransaction(db, async (trx) => {
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
    const earlier = await listPlayDecisions(trx, run.id);
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
        auto_thousandths: graded.earnedThousandths,
        hint_cost_thousandths: graded.result.hintCharged ? toThousandths(hintCostOf(definition, step)) : 0,
        submitted_at: at,
      });
      reviewers = await listAdminIds(trx);
      await insertNotifications(trx, reviewers, {
        kind: REVIEW_PENDING_KIND,
        message: `${user.first_name} ${user.last_name} submitted a written answer in "${run.scenario_name}" for grading.`,
        link: '/admin/reviews',
      });
    }
    if (firstSubmission && journal?.active) {
      const facts = { at, hintUsed: run.hint_opened === 1, timeMs: input.timeMs, awaitingReview: pendingReview };
      await journal.record(trx, answeredEntry(run, user, step, graded, facts));
    }
    return { answered: claimed, decisions: [...earlier, decision] };
  });

  // After the commit: every admin's bell fetches the new notification about the answer to grade.
  if (reviewers.length > 0) await notifyRecipients(db, reviewers);
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
async function moveOnOn(db: Db, user: User, id: string, journal: RunJournal | undefined): Promise<RunState> {
  const found = await playableRun(db, user, id);
  const { run } = found;
  const scenario = await liveScenario(db, found);
  if (run.current_answered !== 1 || run.last_option_index === null) throw conflict(RUN_MESSAGES.notAnswered);
  const steps = scenario.definition.steps;
  const step = steps.find((candidate) => candidate.id === run.current_step_id);
  if (!step || (step.kind === 'choice' && !step.options[run.last_option_index]))
    throw conflict(RUN_MESSAGES.scenarioChanged);

  const next = nextFrom(steps, step, run);
  const lastOptionIndex = run.last_option_index;
  const moved = await journalled(
    db,
    journal,
    (trx) =>
      moveRunReturningRun(trx, {
        runId: run.id,
        fromStepId: step.id,
        optionIndex: lastOptionIndex,
        to: next,
        percentBase: runPercentBase({
          status: 'completed',
          playedSteps: run.played_steps,
          bestPathSteps: run.best_path_steps,
        }),
        at: nowIso(),
      }),
    (row) => row && finishedEntry(row, user),
  );
  if (!moved) throw conflict(await lostRaceMessage(db, run.id, RUN_MESSAGES.notAnswered));
  // A run still in progress is drawn for play (the new step not yet answered); a finished one needs every result.
  const decisions = await (moved.status === 'in_progress' ? listPlayDecisions : listDecisions)(db, run.id);
  return describeRun(moved, decisions, scenario, user, 'play');
}

/** End Simulation: finishes at once with status ended; the score so far stays, over at least the best path. */
async function endRunOn(db: Db, user: User, id: string, journal: RunJournal | undefined): Promise<RunState> {
  const found = await playableRun(db, user, id);
  const { run } = found;
  const ended = await journalled(
    db,
    journal,
    (trx) =>
      endRunRow(trx, {
        runId: run.id,
        playedSteps: run.played_steps,
        percentBase: runPercentBase({
          status: 'ended',
          playedSteps: run.played_steps,
          bestPathSteps: run.best_path_steps,
        }),
        at: nowIso(),
      }),
    (row) => row && finishedEntry(row, user),
  );
  if (!ended) throw conflict(await lostRaceMessage(db, run.id, RUN_MESSAGES.alreadyAnswered));
  const [decisions, scenario, finished] = await Promise.all([
    listDecisions(db, run.id),
    loadedScenario(db, found.scenario, found.run),
    finishedContext(db, ended),
  ]);
  return describeRun(ended, decisions, scenario, user, 'read', finished);
}

// Each request of the run engine runs its queries on one connection held from start to finish. On SQLite (one
// connection per process) a request then finishes before the next one starts, instead of every request in
// flight taking turns query by query: under load the slowest answers come back sooner (bench/, answer path).
// On PostgreSQL it takes one pool connection per request instead of one per query.
// `journal` is the app's run journal (plugins/run-journal.ts): what starts, answers, completes or ends a run also
// writes its entry in the same transaction when a feature listens (xAPI).
export const startRun = (
  db: Db,
  user: User,
  input: StartRunInput,
  limit: RateLimit,
  journal?: RunJournal,
): Promise<StartRunResponse> => withConnection(db, (connection) => startRunOn(connection, user, input, limit, journal));

export const resumeRun = (db: Db, user: User, id: string, journal?: RunJournal): Promise<RunState> =>
  withConnection(db, (connection) => resumeRunOn(connection, user, id, journal));

export const startPractice = (db: Db, user: User, runId: string, stepId: string, limit: RateLimit) =>
  withConnection(db, (connection) => startPracticeOn(connection, user, runId, stepId, limit));

export const answerPracticeStep = (
  db: Db,
  user: User,
  params: { runId: string; practiceId: string },
  input: AnswerInput,
) => withConnection(db, (connection) => answerPracticeOn(connection, user, params, input));

export const getRun = (db: Db, viewer: User, id: string): Promise<RunState> =>
  withConnection(db, (connection) => getRunOn(connection, viewer, id));

export const answerStep = (
  db: Db,
  user: User,
  id: string,
  input: AnswerInput,
  journal?: RunJournal,
): Promise<AnswerResult> => withConnection(db, (connection) => answerStepOn(connection, user, id, input, journal));

export const openStepHint = (db: Db, user: User, id: string, stepId: string): Promise<HintResult> =>
  withConnection(db, (connection) => openHintOn(connection, user, id, stepId));

export const moveOn = (db: Db, user: User, id: string, journal?: RunJournal): Promise<RunState> =>
  withConnection(db, (connection) => moveOnOn(connection, user, id, journal));

export const endRun = (db: Db, user: User, id: string, journal?: RunJournal): Promise<RunState> =>
  withConnection(db, (connection) => endRunOn(connection, user, id, journal));
