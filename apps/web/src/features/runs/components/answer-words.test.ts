import type { StepResult } from '@tradecraft/shared';
import { describe, expect, it } from 'vitest';
import { keyInWords } from './answer-words';

const common = {
  credit: 0.5,
  creditThousandths: 500,
  rawCredit: 0.5,
  hintCharged: false,
  firstSubmission: true,
  scored: true,
  verdict: 'partial',
  explanation: null,
} as const;

describe('keyInWords', () => {
  it('names the accepted likelihood terms', () => {
    const result: StepResult = {
      ...common,
      kind: 'estimate',
      statement: 'It happens',
      term: 'unlikely',
      confidence: null,
      accept: ['likely', 'very-likely'],
      outcome: true,
      probability: 0.325,
      distance: 2,
    };
    expect(keyInWords(result)).toBe('Likely or Very likely');
  });

  it('writes the Admiralty key as one code', () => {
    const result: StepResult = {
      ...common,
      kind: 'grade-source',
      artifact: 0,
      reliability: { given: 'C', key: 'B', verdict: 'partial' },
      credibility: { given: 2, key: 2, verdict: 'right' },
    };
    expect(keyInWords(result)).toBe('B2');
  });

  it('lists only the options of a multi step that apply', () => {
    const result: StepResult = {
      ...common,
      kind: 'multi',
      options: [
        { text: 'Reset the password', correct: true, selected: true, verdict: 'right', feedback: null },
        { text: 'Wait', correct: false, selected: true, verdict: 'wrong', feedback: null },
        { text: 'Revoke sessions', correct: true, selected: false, verdict: 'wrong', feedback: null },
      ],
      rightPicked: 1,
      wrongPicked: 1,
      rightCount: 2,
    };
    expect(keyInWords(result)).toBe('Reset the password; Revoke sessions');
  });
});
