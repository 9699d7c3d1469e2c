import { BoundedMap } from '../../bounded-map';
import {
  DEFAULT_DIFFICULTY,
  isMissedVerdict,
  MAX_DIFFICULTY,
  MIN_DIFFICULTY,
  STEP_KINDS,
  TUTORIAL_SCENARIO_ID,
  type ProgressDecision,
  type ProgressRun,
  type ProgressSummary,
  type RecommendedScenario,
  type ScenarioDefinition,
  type StepKind,
  type TechniqueRef,
  type UserProgress,
} from '@tradecraft/shared';
import { techniqueKey, techniqueRef } from '@tradecraft/shared/attack';
import type { Db } from '../../db/database';
import type { Run, User } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { decisionSkill, parseStepResult, runDurationSeconds, runFigures, verdictOf } from '../runs/run-figures';
import { findUserByEmail } from '../users/users.service';
import {
  findDifficultySetting,
  findRun,
  listCatalogue,
  listDecisionsOfUser,
  listRunsOfUser,
  type CatalogueRow,
  type DecisionRow,
} from './progress.repository';

export const PROGRESS_MESSAGES = {
  ownProgressOnly: 'You can only see your own progress.',
  noSuchUser: 'No user has that email.',
  runNotFound: 'Simulation run not found.',
  ownSkillsOnly: 'You can only see your own skill map.',
} as const;

/** The most scenarios the dashboard recommends. */
export const MAX_RECOMMENDATIONS = 3;

const isAdmin = (user: User) => user.role === 'admin';

/** The platform difficulty saved by the Difficulty Adjuster (a JSON number), or the default 3. */
export function difficultyFromSetting(value: string | undefined): number {
  let parsed: unknown;
  try {
    parsed = value === undefined ? undefined : JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  return typeof parsed === 'number' && Number.isInteger(parsed) && parsed >= MIN_DIFFICULTY && parsed <= MAX_DIFFICULTY
    ? parsed
    : DEFAULT_DIFFICULTY;
}

/** Whole seconds from start to finish; null while the run is in progress. */
export function durationSeconds(run: Pick<Run, 'started_at' | 'finished_at'>): number | null {
  return run.finished_at ? runDurationSeconds(run, run.finished_at) : null;
}

export function toProgressDecision(row: DecisionRow): ProgressDecision {
  const technique = techniqueKey(row.technique);
  const result = row.kind === 'write' ? parseStepResult(row.result) : undefined;
  return {
    seq: row.seq,
    stepId: row.step_id,
    decision: row.decision,
    feedback: row.feedback,
    correct: row.correct === 1,
    technique: technique ? techniqueRef(technique) : null,
    timeMs: row.time_ms,
    at: row.at,
    kind: isStepKind(row.kind) ? row.kind : 'choice',
    skill: decisionSkill(row),
    credit: row.credit_thousandths / 1000,
    firstSubmission: row.first_submission === 1,
    scored: row.scored === 1,
    hintUsed: row.hint_used === 1,
    reviewStatus:
      result?.kind === 'write' && row.first_submission === 1 && row.scored === 1
        ? (result.review?.status ?? null)
        : null,
    verdict: verdictOf(row, result),
  };
}

const isStepKind = (kind: string): kind is StepKind => (STEP_KINDS as readonly string[]).includes(kind);

// Recommendations read the techniques of every scenario in the library on each dashboard load; parsing every
// definition each time made that load grow with the library (bench/pages: 5 ms at 50 scenarios, 38 ms at 500).
// Kept by the definition's exact text, so an edited scenario is read afresh.
const TECHNIQUES_KEPT = 2000;
const techniquesByDefinition = new BoundedMap<string, ReadonlySet<string>>(TECHNIQUES_KEPT);

/** The techniques a scenario's steps practise (dataset ids), or none when its definition cannot be read. */
export function scenarioTechniques(definitionJson: string): ReadonlySet<string> {
  const known = techniquesByDefinition.get(definitionJson);
  if (known) return known;
  let techniques: ReadonlySet<string>;
  try {
    const definition = JSON.parse(definitionJson) as Pick<ScenarioDefinition, 'steps'>;
    const ids = (definition.steps ?? [])
      .map((step) => techniqueKey(step.mitre_attack))
      .filter((id): id is string => id !== null);
    techniques = new Set(ids);
  } catch {
    techniques = new Set();
  }
  techniquesByDefinition.set(definitionJson, techniques);
  return techniques;
}

export interface RankedScenario {
  scenario: CatalogueRow;
  practises: TechniqueRef[];
}

/**
 * Scenarios ranked for practice: first those covering the most missed answers (weighted by how often each
 * technique was missed), then those nearest the platform difficulty, then by name.
 */
export function rankScenarios(
  catalogue: CatalogueRow[],
  missed: Map<string, number>,
  platformDifficulty: number,
  options: { onlyCovering: boolean; limit: number },
): RankedScenario[] {
  const ranked = catalogue.map((scenario) => {
    const covered = [...scenarioTechniques(scenario.definition)].filter((id) => missed.has(id));
    covered.sort((a, b) => (missed.get(b) ?? 0) - (missed.get(a) ?? 0) || a.localeCompare(b));
    const weight = covered.reduce((sum, id) => sum + (missed.get(id) ?? 0), 0);
    return { scenario, covered, weight, gap: Math.abs(scenario.difficulty - platformDifficulty) };
  });
  return ranked
    .filter((entry) => !options.onlyCovering || entry.covered.length > 0)
    .sort(
      (a, b) =>
        b.weight - a.weight ||
        a.gap - b.gap ||
        a.scenario.name.localeCompare(b.scenario.name) ||
        a.scenario.id.localeCompare(b.scenario.id),
    )
    .slice(0, options.limit)
    .map((entry) => ({ scenario: entry.scenario, practises: entry.covered.map(techniqueRef) }));
}

/** Missed steps per technique: first answers partly right or wrong (never a right answer after a hint or a Retry). */
export function missedTechniques(decisions: Iterable<DecisionRow>): Map<string, number> {
  const missed = new Map<string, number>();
  for (const decision of decisions) {
    const technique = techniqueKey(decision.technique);
    if (technique && isMissedVerdict(verdictOf(decision))) missed.set(technique, (missed.get(technique) ?? 0) + 1);
  }
  return missed;
}

function summarise(runs: ProgressRun[]): ProgressSummary {
  const completed = runs.filter((run) => run.completed);
  // A run awaiting review is neither a pass nor a fail yet: it is left out of the pass rate and counted apart.
  const judged = completed.filter((run) => run.result === 'Pass' || run.result === 'Fail');
  const passed = judged.filter((run) => run.result === 'Pass').length;
  const percents = completed.map((run) => run.scorePercent).filter((percent): percent is number => percent !== null);
  return {
    runsTotal: runs.length,
    runsCompleted: completed.length,
    runsPassed: passed,
    runsAwaitingReview: completed.filter((run) => run.result === 'Awaiting review').length,
    passRatePercent: judged.length > 0 ? Math.round((passed * 100) / judged.length) : null,
    averageScorePercent:
      percents.length > 0 ? Math.round(percents.reduce((sum, percent) => sum + percent, 0) / percents.length) : null,
  };
}

function recommendationReason(practises: TechniqueRef[], difficulty: number, platformDifficulty: number): string {
  if (practises.length > 0) {
    const named = practises.slice(0, 2).map((technique) => `${technique.id} ${technique.name}`);
    const more = practises.length > 2 ? ` and ${practises.length - 2} more` : '';
    return `Practises ${named.join(', ')}${more}, which you answered wrongly before.`;
  }
  if (difficulty === platformDifficulty) return 'Matches the difficulty your administrator set for the platform.';
  return 'You have not completed this scenario yet.';
}

const TUTORIAL_REASON = 'Start here: a short case that shows how a run works, from the case file to the debrief.';

/** A trainee with no runs yet is recommended the tutorial first (when the library has it). */
function withTutorialFirst(ranked: RankedScenario[], catalogue: CatalogueRow[], noRuns: boolean): RankedScenario[] {
  const tutorial = noRuns ? catalogue.find((scenario) => scenario.id === TUTORIAL_SCENARIO_ID) : undefined;
  if (!tutorial) return ranked;
  const others = ranked.filter((entry) => entry.scenario.id !== TUTORIAL_SCENARIO_ID);
  return [{ scenario: tutorial, practises: [] }, ...others].slice(0, MAX_RECOMMENDATIONS);
}

/**
 * Everything the Progress Dashboard draws, for one user, in a fixed number of queries however many runs
 * and scenarios there are: the runs, every run's decisions (one query), the library, the difficulty.
 */
export async function userProgress(db: Db, viewer: User, email: string): Promise<UserProgress> {
  const wanted = email.trim().toLowerCase();
  if (!isAdmin(viewer) && viewer.email !== wanted) throw forbidden(PROGRESS_MESSAGES.ownProgressOnly);
  const user = viewer.email === wanted ? viewer : await findUserByEmail(db, wanted);
  if (!user) throw notFound(PROGRESS_MESSAGES.noSuchUser);

  const [runRows, decisionRows, catalogue, difficultySetting] = await Promise.all([
    listRunsOfUser(db, user.id),
    listDecisionsOfUser(db, user.id),
    listCatalogue(db, { notCompletedBy: user.id }),
    findDifficultySetting(db),
  ]);
  const platformDifficulty = difficultyFromSetting(difficultySetting);

  const timelines = new Map<string, ProgressDecision[]>();
  for (const row of decisionRows) {
    const timeline = timelines.get(row.run_id) ?? [];
    timeline.push(toProgressDecision(row));
    timelines.set(row.run_id, timeline);
  }

  // The latest run of each scenario: an unfinished one (in progress, or ended) is the one Resume continues.
  const latestOfScenario = new Map<string, (typeof runRows)[number]>();
  for (const row of runRows) {
    const known = latestOfScenario.get(row.scenario_id);
    if (!known || row.started_at > known.started_at || (row.started_at === known.started_at && row.id > known.id))
      latestOfScenario.set(row.scenario_id, row);
  }

  const runs: ProgressRun[] = runRows.map((row) => {
    const scenarioAvailable = row.scenario_row_id !== null && row.scenario_deleted_at === null;
    return {
      id: row.id,
      ...runFigures(row),
      durationSeconds: durationSeconds(row),
      scenarioAvailable,
      resumable:
        scenarioAvailable &&
        (row.status === 'in_progress' ||
          (row.status === 'ended' && latestOfScenario.get(row.scenario_id)?.id === row.id)),
      timeline: timelines.get(row.id) ?? [],
    };
  });

  const ranked = rankScenarios(catalogue, missedTechniques(decisionRows), platformDifficulty, {
    onlyCovering: false,
    limit: MAX_RECOMMENDATIONS,
  });
  const recommendations: RecommendedScenario[] = withTutorialFirst(ranked, catalogue, runRows.length === 0).map(
    ({ scenario, practises }) => ({
      id: scenario.id,
      name: scenario.name,
      type: scenario.type,
      difficulty: scenario.difficulty,
      description: scenario.description,
      stepCount: scenario.step_count,
      reason:
        scenario.id === TUTORIAL_SCENARIO_ID && runRows.length === 0
          ? TUTORIAL_REASON
          : recommendationReason(practises, scenario.difficulty, platformDifficulty),
      practises,
    }),
  );

  return {
    user: { id: user.id, email: user.email, firstName: user.first_name, lastName: user.last_name },
    platformDifficulty,
    summary: summarise(runs),
    runs,
    recommendations,
  };
}

/** A run the viewer may read: their own, or anyone's for an admin; 404 for everyone else (no hint it exists). */
export async function readableRun(db: Db, viewer: User, runId: string): Promise<Run> {
  const run = await findRun(db, runId);
  if (!run || (run.user_id !== viewer.id && !isAdmin(viewer))) throw notFound(PROGRESS_MESSAGES.runNotFound);
  return run;
}
