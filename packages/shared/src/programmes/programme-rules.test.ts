import { describe, expect, it } from 'vitest';
import { assignmentStatus, attentionOf, itemFlags, pathStepStates } from './programme-rules';

const none = { met: false, inProgress: false, failed: false, started: false };
const now = '2026-11-25T12:00:00.000Z';

describe('assignment status', () => {
  it('is passed once met, even after the due date', () => {
    expect(assignmentStatus({ ...none, met: true, started: true }, '2026-11-01T00:00:00.000Z', now)).toBe('passed');
  });
  it('is overdue past the due date when not met', () => {
    expect(assignmentStatus({ ...none, inProgress: true, started: true }, '2026-11-25T11:59:59.000Z', now)).toBe(
      'overdue',
    );
  });
  it('is in progress, failed or not started before the due date', () => {
    expect(assignmentStatus({ ...none, inProgress: true, started: true, failed: true }, null, now)).toBe('in_progress');
    expect(assignmentStatus({ ...none, failed: true, started: true }, null, now)).toBe('failed');
    expect(assignmentStatus(none, '2026-12-01T00:00:00.000Z', now)).toBe('not_started');
  });
  it('is awaiting review, not failed, while a finished run waits for an instructor', () => {
    expect(assignmentStatus({ ...none, awaitingReview: true, started: true }, null, now)).toBe('awaiting_review');
    expect(assignmentStatus({ ...none, awaitingReview: true, failed: true, started: true }, null, now)).toBe(
      'awaiting_review',
    );
  });
});

describe('path locks', () => {
  it('opens each step of a sequential path when the one before is passed', () => {
    expect(pathStepStates('sequential', [true, false, false])).toEqual(['passed', 'open', 'locked']);
    expect(pathStepStates('sequential', [false, true, false])).toEqual(['open', 'passed', 'locked']);
  });
  it('opens every step of an open path', () => {
    expect(pathStepStates('open', [false, false])).toEqual(['open', 'open']);
  });
});

describe('item flags', () => {
  const base = { answered: 10, meanCredit: 0.6, discrimination: 0.5, topGroupSize: 3, options: [] };
  it('says nothing about a step fewer than five answered', () => {
    expect(itemFlags({ ...base, answered: 4, discrimination: -1 })).toEqual([]);
  });
  it('flags a negative index, a distractor nobody picks and one strong trainees pick', () => {
    const flags = itemFlags({
      ...base,
      discrimination: -0.3,
      options: [
        { correct: true, chosen: 4, chosenByTop: 1 },
        { correct: false, chosen: 6, chosenByTop: 2 },
        { correct: false, chosen: 0, chosenByTop: 0 },
      ],
    });
    expect(flags).toEqual(['negative_discrimination', 'unused_distractor', 'popular_distractor']);
    expect(attentionOf(flags)).toBe(10);
  });
  it('flags steps nearly nobody or nearly everybody gets right', () => {
    expect(itemFlags({ ...base, meanCredit: 0.1 })).toEqual(['too_hard']);
    expect(itemFlags({ ...base, meanCredit: 1, discrimination: 0.1 })).toEqual(['low_discrimination', 'too_easy']);
  });
});
