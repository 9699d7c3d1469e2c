import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatScorePercent,
  PASS_MARK_PERCENT,
  PASS_MARK_RATIO,
  runResult,
  runResultColor,
  runPercentBase,
  runScorePercent,
  runStatusLabel,
  isRunCompleted,
} from './progress-rules';

describe('runScorePercent', () => {
  it('is the score (thousandths) over the percent base times 100, rounded', () => {
    expect(runScorePercent(2000, 3)).toBe(67);
    expect(runScorePercent(1000, 3)).toBe(33);
    expect(runScorePercent(0, 4)).toBe(0);
    expect(runScorePercent(4000, 4)).toBe(100);
  });

  it('rounds 69.5 up to 70 and 69.4 down to 69 (no binary-fraction drift)', () => {
    expect(runScorePercent(139000, 200)).toBe(70); // exactly 69.5
    expect(runScorePercent(347000, 500)).toBe(69); // 69.4
    expect(runScorePercent(7000, 10)).toBe(70);
  });

  it("is unknown ('-') when the step count is unknown or 0, or the score is missing", () => {
    expect(runScorePercent(3000, 0)).toBeNull();
    expect(runScorePercent(3000, null)).toBeNull();
    expect(runScorePercent(3000, undefined)).toBeNull();
    expect(runScorePercent(null, 4)).toBeNull();
    expect(runScorePercent(undefined, 4)).toBeNull();
    expect(formatScorePercent(runScorePercent(3000, 0))).toBe('-');
    expect(formatScorePercent(runScorePercent(2000, 3))).toBe('67');
  });

  it('never goes above 100', () => {
    expect(runScorePercent(5000, 4)).toBe(100);
  });
});

describe('runPercentBase', () => {
  it('divides a completed run by the steps played, so a perfect short path is 100 %', () => {
    expect(runPercentBase({ status: 'completed', playedSteps: 5, bestPathSteps: 8 })).toBe(5);
    expect(runScorePercent(5000, runPercentBase({ status: 'completed', playedSteps: 5, bestPathSteps: 8 }))).toBe(100);
  });

  it('divides an ended or unfinished run by at least the best path, so ending early never inflates it', () => {
    expect(runPercentBase({ status: 'ended', playedSteps: 2, bestPathSteps: 8 })).toBe(8);
    expect(runPercentBase({ status: 'in_progress', playedSteps: 2, bestPathSteps: 8 })).toBe(8);
    expect(runPercentBase({ status: 'ended', playedSteps: 10, bestPathSteps: 8 })).toBe(10);
  });
});

describe('runResult', () => {
  const completed = (score: number, steps: number) =>
    runResult({ completed: true, scorePercent: runScorePercent(score * 1000, steps) });

  it('passes a completed run at 70 % and fails it below', () => {
    expect(PASS_MARK_PERCENT).toBe(70);
    expect(completed(7, 10)).toBe('Pass');
    expect(completed(10, 10)).toBe('Pass');
    expect(completed(69, 100)).toBe('Fail');
    expect(completed(0, 4)).toBe('Fail');
  });

  it('compares the ROUNDED percent: 69.5 % shows 70 and passes, 69.4 % shows 69 and fails', () => {
    expect(completed(139, 200)).toBe('Pass');
    expect(completed(347, 500)).toBe('Fail');
  });

  it("is '-' for an incomplete run, however high its score", () => {
    expect(runResult({ completed: false, scorePercent: 100 })).toBe('-');
    expect(runResult({ completed: false, scorePercent: 0 })).toBe('-');
  });

  it("is '-' for a completed run whose step count is unknown", () => {
    expect(completed(3, 0)).toBe('-');
  });

  it('shows Awaiting review for a completed run with a written answer not yet graded, whatever its percent', () => {
    expect(runResult({ completed: true, scorePercent: 100, pendingReviews: 1 })).toBe('Awaiting review');
    expect(runResult({ completed: true, scorePercent: 10, pendingReviews: 2 })).toBe('Awaiting review');
    expect(runResult({ completed: false, scorePercent: 10, pendingReviews: 1 })).toBe('-');
  });

  it('colours Pass green and Fail red, and leaves - uncoloured', () => {
    expect(runResultColor('Pass')).toBe('green');
    expect(runResultColor('Fail')).toBe('red');
    expect(runResultColor('-')).toBeNull();
  });

  it("agrees with the database's integer form 2·thousandths ≥ 1390·base for every score of 1..60 steps", () => {
    const disagreements: string[] = [];
    for (let steps = 1; steps <= 60; steps++) {
      for (let thousandths = 0; thousandths <= steps * 1000; thousandths++) {
        const sqlPass = PASS_MARK_RATIO.scoreFactor * thousandths >= PASS_MARK_RATIO.baseFactor * steps;
        const pass = runResult({ completed: true, scorePercent: runScorePercent(thousandths, steps) }) === 'Pass';
        if (pass !== sqlPass) disagreements.push(`${thousandths}/${steps}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe('runStatusLabel', () => {
  it('is Completed only for a completed run; in-progress and ended runs are Incomplete', () => {
    expect(runStatusLabel(isRunCompleted('completed'))).toBe('Completed');
    expect(runStatusLabel(isRunCompleted('in_progress'))).toBe('Incomplete');
    expect(runStatusLabel(isRunCompleted('ended'))).toBe('Incomplete');
  });
});

describe('formatDuration', () => {
  it('writes seconds, minutes and hours', () => {
    expect(formatDuration(12)).toBe('12 s');
    expect(formatDuration(245)).toBe('4 min 05 s');
    expect(formatDuration(3 * 3600 + 7 * 60)).toBe('3 h 07 min');
    expect(formatDuration(null)).toBe('-');
  });
});
