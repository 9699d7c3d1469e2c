import { describe, expect, it } from 'vitest';
import { answerInputSchema } from './step-answers.schema';
import { judgeAnswer } from './feedback';
import { scoreAnswer, scorePercent } from './scoring';

const step = {
  correct_option: 1,
  options: [
    { text: 'Open the attachment', feedback: 'Never on your own workstation.' },
    { text: 'Purge and scope', feedback: '  Scoping comes first.  ' },
    { text: 'Ignore it' },
  ],
};

describe('judgeAnswer', () => {
  it('says Correct! and adds the option explanation on its own line', () => {
    expect(judgeAnswer(step, 1)).toEqual({ correct: true, feedback: '✅ Correct!\nScoping comes first.' });
  });

  it('names the correct option when the answer is wrong', () => {
    expect(judgeAnswer(step, 0)).toEqual({
      correct: false,
      feedback: '❌ Incorrect. The correct answer was: "Purge and scope"\nNever on your own workstation.',
    });
  });

  it('gives the headline alone when the option has no explanation', () => {
    expect(judgeAnswer(step, 2).feedback).toBe('❌ Incorrect. The correct answer was: "Purge and scope"');
  });

  it('refuses an option that does not exist', () => {
    expect(() => judgeAnswer(step, 3)).toThrow(RangeError);
  });
});

describe('scoreAnswer', () => {
  it('adds one to the score and to the technique for a correct answer', () => {
    const first = scoreAnswer({ score: 0, techniqueCounts: {} }, { correct: true, technique: 'T1566.001' });
    const second = scoreAnswer(first, { correct: true, technique: 'T1566.001' });
    expect(second).toEqual({ score: 2, techniqueCounts: { 'T1566.001': 2 } });
    expect(first).toEqual({ score: 1, techniqueCounts: { 'T1566.001': 1 } });
  });

  it('adds to the score only when the step has no technique', () => {
    expect(scoreAnswer({ score: 1, techniqueCounts: { T1557: 1 } }, { correct: true, technique: null })).toEqual({
      score: 2,
      techniqueCounts: { T1557: 1 },
    });
  });

  it('changes nothing for a wrong answer', () => {
    const current = { score: 1, techniqueCounts: { T1557: 1 } };
    expect(scoreAnswer(current, { correct: false, technique: 'T1557' })).toBe(current);
  });
});

describe('scorePercent', () => {
  it('rounds score over step count', () => {
    expect(scorePercent(2, 3)).toBe(67);
    expect(scorePercent(0, 4)).toBe(0);
    expect(scorePercent(4, 4)).toBe(100);
  });

  it('is 0 for an unknown step count and never above 100', () => {
    expect(scorePercent(3, 0)).toBe(0);
    expect(scorePercent(5, 4)).toBe(100);
  });
});

describe('answerInputSchema', () => {
  it('accepts a sane answer and refuses out-of-range values', () => {
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: 2, timeMs: 1500 }).success).toBe(true);
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: 6, timeMs: 1500 }).success).toBe(false);
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: -1, timeMs: 1500 }).success).toBe(false);
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: 1.5, timeMs: 1500 }).success).toBe(false);
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: 1, timeMs: -1 }).success).toBe(false);
    expect(answerInputSchema.safeParse({ stepId: '', optionIndex: 1, timeMs: 0 }).success).toBe(false);
  });
});
