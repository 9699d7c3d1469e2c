import { assignmentStatus, type AssignmentStatus, type RunResult } from '@tradecraft/shared';
import { runFigures } from '../runs/run-figures';
import type { AssignmentRow, RunFiguresRow } from './programmes.repository';

// What a trainee has done towards an assignment, from their runs: a run counts when it started at or after the
// moment the assignment was given, and passes by THE run figures (runFigures), never by a rule of our own.

export interface RunOutcome {
  scenarioId: string;
  startedAt: string;
  inProgress: boolean;
  passed: boolean;
  failed: boolean;
  /** Finished, with a written answer still to grade: neither a pass nor a fail yet. */
  awaitingReview: boolean;
  percent: number | null;
  result: RunResult;
}

export function outcomeOf(run: RunFiguresRow): RunOutcome {
  const figures = runFigures(run);
  return {
    scenarioId: run.scenario_id,
    startedAt: run.started_at,
    inProgress: run.status === 'in_progress',
    passed: figures.result === 'Pass',
    failed: figures.result === 'Fail',
    awaitingReview: figures.result === 'Awaiting review',
    percent: figures.completed ? figures.scorePercent : null,
    result: figures.result,
  };
}

/** Runs grouped by user, then by scenario. */
export function outcomesByUser(runs: readonly RunFiguresRow[]): Map<string, Map<string, RunOutcome[]>> {
  const byUser = new Map<string, Map<string, RunOutcome[]>>();
  for (const run of runs) {
    const byScenario = byUser.get(run.user_id) ?? new Map<string, RunOutcome[]>();
    byUser.set(run.user_id, byScenario);
    const list = byScenario.get(run.scenario_id) ?? [];
    list.push(outcomeOf(run));
    byScenario.set(run.scenario_id, list);
  }
  return byUser;
}

export interface AssignmentProgress {
  status: AssignmentStatus;
  passed: number;
  total: number;
  bestPercent: number | null;
  /** The best finished run's result since it was given (a scenario), or null. */
  result: RunResult | null;
  /** The first scenario still to pass (in order), or null when met. */
  nextScenarioId: string | null;
  /** That scenario has a run in progress (any time: starting it resumes). */
  resume: boolean;
}

/**
 * An assignment's progress for one trainee. `scenarioIds`: the scenario, or the path's scenarios in order.
 * A scenario assignment must be passed by a run started since it was given. A learning path's assignment counts
 * the passes the path page and its certificate count, whenever they happened, so the dashboard's card and the
 * path page always say the same (docs/programmes.md).
 */
export function assignmentProgress(
  assignment: Pick<AssignmentRow, 'created_at' | 'due_at' | 'path_id'>,
  scenarioIds: readonly string[],
  outcomes: ReadonlyMap<string, RunOutcome[]> | undefined,
  now: string,
): AssignmentProgress {
  const since = assignment.path_id !== null ? Number.NEGATIVE_INFINITY : Date.parse(assignment.created_at);
  let passed = 0;
  let started = false;
  let inProgress = false;
  let failed = false;
  let awaitingReview = false;
  let bestPercent: number | null = null;
  let result: RunResult | null = null;
  let nextScenarioId: string | null = null;
  let resume = false;
  for (const scenarioId of scenarioIds) {
    const all = outcomes?.get(scenarioId) ?? [];
    const counted = all.filter((run) => Date.parse(run.startedAt) >= since);
    const passedHere = counted.some((run) => run.passed);
    if (passedHere) passed += 1;
    else if (nextScenarioId === null) {
      nextScenarioId = scenarioId;
      resume = all.some((run) => run.inProgress);
    }
    started ||= counted.length > 0;
    inProgress ||= counted.some((run) => run.inProgress);
    failed ||= !passedHere && counted.some((run) => run.failed);
    awaitingReview ||= !passedHere && counted.some((run) => run.awaitingReview);
    for (const run of counted) {
      if (run.percent !== null && (bestPercent === null || run.percent > bestPercent)) {
        bestPercent = run.percent;
        result = run.result;
      }
    }
  }
  const met = passed === scenarioIds.length && scenarioIds.length > 0;
  // Part of a path done is progress, not failure.
  const partial = !met && passed > 0;
  return {
    status: assignmentStatus(
      {
        met,
        inProgress: inProgress || partial,
        failed: failed && !partial,
        awaitingReview: awaitingReview && !partial,
        started,
      },
      assignment.due_at,
      now,
    ),
    passed,
    total: scenarioIds.length,
    bestPercent,
    result,
    nextScenarioId,
    resume,
  };
}
