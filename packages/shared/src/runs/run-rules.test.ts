import { describe, expect, it } from 'vitest';
import { answerInputSchema } from './step-answers.schema';
import { judgeAnswer } from './feedback';

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
    expect(judgeAnswer(step, 1)).toEqual({ correct: true, feedback: 'Correct!\nScoping comes first.' });
  });

  it('names the correct option when the answer is wrong', () => {
    expect(judgeAnswer(step, 0)).toEqual({
      correct: false,
      feedback: 'Incorrect. The correct answer was: "Purge and scope"\nNever on your own workstation.',
    });
  });

  it('gives the headline alone when the option has no explanation', () => {
    expect(judgeAnswer(step, 2).feedback).toBe('Incorrect. The correct answer was: "Purge and scope"');
  });

  it('refuses an option that does not exist', () => {
    expect(() => judgeAnswer(step, 3)).toThrow(RangeError);
  });
});

describe('answerInputSchema', () => {
  it('accepts a sane answer and refuses out-of-range values', () => {
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: 2, timeMs: 1500 }).success).toBe(true);
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: 8, timeMs: 1500 }).success).toBe(false);
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: -1, timeMs: 1500 }).success).toBe(false);
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: 1.5, timeMs: 1500 }).success).toBe(false);
    expect(answerInputSchema.safeParse({ stepId: 'triage', optionIndex: 1, timeMs: -1 }).success).toBe(false);
    expect(answerInputSchema.safeParse({ stepId: '', optionIndex: 1, timeMs: 0 }).success).toBe(false);
  });
});
