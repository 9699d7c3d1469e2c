// The progress rules every screen and export uses (Training Progress, the dashboard, reports): score percent, Result and
// Status. Kept free of zod so the dashboard's first paint does not carry it.

/** A completed run passes at 70 percent or more. */
export const PASS_MARK_PERCENT = 70;

export type RunStatusValue = 'in_progress' | 'completed' | 'ended';

/**
 * What the Result column shows: Pass or Fail for a completed run with a known percent, "Awaiting review" for a
 * completed run with a written answer not yet graded, '-' otherwise.
 */
export type RunResult = 'Pass' | 'Fail' | 'Awaiting review' | '-';

export const AWAITING_REVIEW = 'Awaiting review';

/** What the Status column shows: a run not completed is Incomplete (an ended run never completed). */
export type RunStatusLabel = 'Completed' | 'Incomplete';

/** The text shown where a percent or result is unknown. */
export const UNKNOWN_MARK = '-';

/**
 * THE score percent of a run, used by every screen and export: round(score / percentBase x 100), at most 100,
 * where the score is kept in exact thousandths of a credit and percentBase counts steps (runPercentBase). Null
 * (shown '-') when the base is unknown or 0 or the score is missing. Computed as round(thousandths / (10 x base)):
 * a true half (69.5) is exact in binary, so it always rounds up.
 */
export function runScorePercent(
  scoreThousandths: number | null | undefined,
  percentBase: number | null | undefined,
): number | null {
  if (scoreThousandths === null || scoreThousandths === undefined || !Number.isFinite(scoreThousandths)) return null;
  if (percentBase === null || percentBase === undefined || !Number.isFinite(percentBase) || percentBase <= 0)
    return null;
  return Math.min(100, Math.max(0, Math.round(scoreThousandths / (10 * percentBase))));
}

/**
 * What a run's percent divides by, in steps: a completed run, the scored steps it played (so a perfect run is
 * always 100 %); a run in progress or ended, the larger of those and the best path's scored steps (so ending
 * early never inflates it).
 */
export function runPercentBase(run: { status: RunStatusValue; playedSteps: number; bestPathSteps: number }): number {
  return run.status === 'completed' ? run.playedSteps : Math.max(run.playedSteps, run.bestPathSteps);
}

/** '67' for 67 percent, '-' when unknown (the "Score (%)" column and the CSV). */
export function formatScorePercent(percent: number | null): string {
  return percent === null ? UNKNOWN_MARK : String(percent);
}

/** Only a run that reached its end counts as completed; an ended (abandoned) run does not. */
export function isRunCompleted(status: RunStatusValue): boolean {
  return status === 'completed';
}

/**
 * Result: '-' unless the run is completed; then Pass when the ROUNDED percent is 70 or more, else Fail.
 * Because the rounded percent is compared, 69.5 % (rounded to 70) passes and 69.4 % (69) fails. A completed
 * run whose step count is unknown has no percent, so its result is '-' too (there is nothing to compare it with).
 */
export function runResult(run: {
  completed: boolean;
  scorePercent: number | null;
  pendingReviews?: number | undefined;
}): RunResult {
  if (!run.completed || run.scorePercent === null) return UNKNOWN_MARK;
  if ((run.pendingReviews ?? 0) > 0) return AWAITING_REVIEW;
  return run.scorePercent >= PASS_MARK_PERCENT ? 'Pass' : 'Fail';
}

/** Pass is green and Fail is red; '-' has no colour. The word is always written beside the colour. */
export function runResultColor(result: RunResult): 'green' | 'red' | 'yellow' | null {
  if (result === 'Pass') return 'green';
  if (result === 'Fail') return 'red';
  if (result === AWAITING_REVIEW) return 'yellow';
  return null;
}

/** Status: Completed for a completed run, Incomplete for one in progress or ended early. */
export function runStatusLabel(completed: boolean): RunStatusLabel {
  return completed ? 'Completed' : 'Incomplete';
}

/**
 * Pass ⇔ round(thousandths / (10·base)) ≥ 70 ⇔ thousandths / (10·base) ≥ 69.5 ⇔ 2·thousandths ≥ 1390·base.
 * The database sorts by Result with this integer form, so SQL and JavaScript can never disagree at the edge.
 */
export const PASS_MARK_RATIO = { scoreFactor: 2, baseFactor: 10 * (2 * PASS_MARK_PERCENT - 1) } as const;

/** "4 min 05 s", "12 s" or '-' for a duration in whole seconds. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return UNKNOWN_MARK;
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0) return `${minutes} min ${String(rest).padStart(2, '0')} s`;
  return `${rest} s`;
}
