import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatScorePercent,
  PASS_MARK_PERCENT,
  PASS_MARK_RATIO,
  runResult,
  runResultColor,
  runScorePercent,
  runStatusLabel,
  isRunCompleted,
} from './progress-rules';

describe('runScorePercent', () => {
  it('is score over step count times 100, rounded', () => {
    expect(runScorePercent(2, 3)).toBe(67);
    expect(runScorePercent(1, 3)).toBe(33);
    expect(runScorePercent(0, 4)).toBe(0);
    expect(runScorePercent(4, 4)).toBe(100);
  });

  it('rounds 69.5 up to 70 and 69.4 down to 69 (no binary-fraction drift)', () => {
    expect(runScorePercent(139, 200)).toBe(70); // exactly 69.5
    expect(runScorePercent(347, 500)).toBe(69); // 69.4
    expect(runScorePercent(7, 10)).toBe(70);
  });

  it("is unknown ('-') when the step count is unknown or 0, or the score is missing", () => {
    expect(runScorePercent(3, 0)).toBeNull();
    expect(runScorePercent(3, null)).toBeNull();
    expect(runScorePercent(3, undefined)).toBeNull();
    expect(runScorePercent(null, 4)).toBeNull();
    expect(runScorePercent(undefined, 4)).toBeNull();
    expect(formatScorePercent(runScorePercent(3, 0))).toBe('-');
    expect(formatScorePercent(runScorePercent(2, 3))).toBe('67');
  });

  it('never goes above 100', () => {
    expect(runScorePercent(5, 4)).toBe(100);
  });
});

describe('runResult', () => {
  const completed = (score: number, steps: number) => runResult({ completed: true, scorePercent: runScorePercent(score, steps) });

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

  it('colours Pass green and Fail red, and leaves - uncoloured', () => {
    expect(runResultColor('Pass')).toBe('green');
    expect(runResultColor('Fail')).toBe('red');
    expect(runResultColor('-')).toBeNull();
  });

  it("agrees with the database's integer form 200·score ≥ 139·steps for every score of 1..200 steps", () => {
    for (let steps = 1; steps <= 200; steps++) {
      for (let score = 0; score <= steps; score++) {
        const sqlPass = PASS_MARK_RATIO.scoreFactor * score >= PASS_MARK_RATIO.stepFactor * steps;
        expect(completed(score, steps) === 'Pass', `${score}/${steps}`).toBe(sqlPass);
      }
    }
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
