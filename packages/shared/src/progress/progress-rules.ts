// The progress rules every screen and export uses (Training Progress, the dashboard, reports): score percent, Result and
// Status. Kept free of zod so the dashboard's first paint does not carry it.

/** A completed run passes at 70 percent or more. */
export const PASS_MARK_PERCENT = 70;

export type RunStatusValue = 'in_progress' | 'completed' | 'ended';

/** What the Result column shows: Pass or Fail for a completed run with a known percent, '-' otherwise. */
export type RunResult = 'Pass' | 'Fail' | '-';

/** What the Status column shows: a run not completed is Incomplete (an ended run never completed). */
export type RunStatusLabel = 'Completed' | 'Incomplete';

/** The text shown where a percent or result is unknown. */
export const UNKNOWN_MARK = '-';

/**
 * Score percent: round(score / stepCount × 100), at most 100; null (shown '-') when the step count is
 * unknown or 0 or the score is missing. Computed as round(score × 100 / stepCount) so 139 of 200 is
 * exactly 69.5 (which rounds up to 70) instead of 69.49999… from binary fractions.
 */
export function runScorePercent(score: number | null | undefined, stepCount: number | null | undefined): number | null {
  if (score === null || score === undefined || !Number.isFinite(score)) return null;
  if (stepCount === null || stepCount === undefined || !Number.isFinite(stepCount) || stepCount <= 0) return null;
  return Math.min(100, Math.max(0, Math.round((score * 100) / stepCount)));
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
export function runResult(run: { completed: boolean; scorePercent: number | null }): RunResult {
  if (!run.completed || run.scorePercent === null) return UNKNOWN_MARK;
  return run.scorePercent >= PASS_MARK_PERCENT ? 'Pass' : 'Fail';
}

/** Pass is green and Fail is red; '-' has no colour. The word is always written beside the colour. */
export function runResultColor(result: RunResult): 'green' | 'red' | null {
  if (result === 'Pass') return 'green';
  if (result === 'Fail') return 'red';
  return null;
}

/** Status: Completed for a completed run, Incomplete for one in progress or ended early. */
export function runStatusLabel(completed: boolean): RunStatusLabel {
  return completed ? 'Completed' : 'Incomplete';
}

/**
 * Pass ⇔ round(100·score / stepCount) ≥ 70 ⇔ 100·score / stepCount ≥ 69.5 ⇔ 200·score ≥ 139·stepCount.
 * The database sorts by Result with this integer form, so SQL and JavaScript can never disagree at the edge.
 */
export const PASS_MARK_RATIO = { scoreFactor: 200, stepFactor: 2 * PASS_MARK_PERCENT - 1 } as const;

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
