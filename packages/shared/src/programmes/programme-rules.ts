// The rules of training programmes that the server decides and the screens describe: an assignment's status,
// a learning path's locks, and what an item analysis flags.

export const ASSIGNMENT_STATUSES = [
  'not_started',
  'in_progress',
  'awaiting_review',
  'passed',
  'failed',
  'overdue',
] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

export const ASSIGNMENT_STATUS_LABELS: Record<AssignmentStatus, string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  awaiting_review: 'Awaiting review',
  passed: 'Passed',
  failed: 'Failed',
  overdue: 'Overdue',
};

/** A "due soon" notice goes out this long before the due date. */
export const DUE_SOON_MS = 24 * 60 * 60 * 1000;

/** What the trainee has done towards one assignment since it was given. */
export interface AssignmentWork {
  /** Met: a passed run started after the assignment was given (for a path: every scenario of it). */
  met: boolean;
  /** A run started after it was given is still going. */
  inProgress: boolean;
  /** A run started after it was given finished and did not pass. */
  failed: boolean;
  /** A finished run waits for an instructor to grade a written answer: neither passed nor failed yet. */
  awaitingReview?: boolean;
  /** Any run started after it was given. */
  started: boolean;
}

/**
 * An assignment's status for one trainee. Passed once met, whatever the date; otherwise overdue after the due
 * date; otherwise in progress (a run going, or part of a path done), awaiting review (a finished run's written
 * answer still to grade: not a fail), failed (finished below the pass mark, nothing going) or not started.
 */
export function assignmentStatus(work: AssignmentWork, dueAt: string | null, now: string): AssignmentStatus {
  if (work.met) return 'passed';
  if (dueAt !== null && Date.parse(dueAt) < Date.parse(now)) return 'overdue';
  if (work.inProgress) return 'in_progress';
  if (work.awaitingReview) return 'awaiting_review';
  if (work.failed) return 'failed';
  return work.started ? 'in_progress' : 'not_started';
}

export type PathStepState = 'passed' | 'open' | 'locked';

/** Each step's state: passed; else open when the path is open or every step before it is passed; else locked. */
export function pathStepStates(unlock: 'sequential' | 'open', passed: readonly boolean[]): PathStepState[] {
  let allBeforePassed = true;
  return passed.map((isPassed) => {
    const state: PathStepState = isPassed ? 'passed' : unlock === 'open' || allBeforePassed ? 'open' : 'locked';
    allBeforePassed &&= isPassed;
    return state;
  });
}

/** The share of a cohort at the top and at the bottom compared by the discrimination index. */
export const DISCRIMINATION_GROUP_SHARE = 0.27;

export const ITEM_FLAGS = [
  'negative_discrimination',
  'low_discrimination',
  'too_hard',
  'too_easy',
  'unused_distractor',
  'popular_distractor',
] as const;
export type ItemFlag = (typeof ITEM_FLAGS)[number];

export const ITEM_FLAG_LABELS: Record<ItemFlag, string> = {
  negative_discrimination: 'Strong trainees do worse than weak ones',
  low_discrimination: 'Hardly separates strong from weak trainees',
  too_hard: 'Almost nobody gets it right',
  too_easy: 'Almost everybody gets it right',
  unused_distractor: 'A wrong option nobody picks',
  popular_distractor: 'A wrong option most strong trainees pick',
};

/** How much each flag weighs when steps are sorted by what needs the author's attention. */
const FLAG_WEIGHT: Record<ItemFlag, number> = {
  negative_discrimination: 5,
  popular_distractor: 4,
  too_hard: 3,
  low_discrimination: 2,
  unused_distractor: 1,
  too_easy: 1,
};

export interface ItemFigures {
  answered: number;
  /** 0..1 */
  meanCredit: number | null;
  /** -1..1, null when there are too few finished runs to form both groups. */
  discrimination: number | null;
  options: { correct: boolean; chosen: number; chosenByTop: number }[];
  topGroupSize: number;
}

/** The flags of one step; nothing is said about a step fewer than five trainees answered. */
export function itemFlags(item: ItemFigures): ItemFlag[] {
  if (item.answered < 5) return [];
  const flags: ItemFlag[] = [];
  if (item.discrimination !== null) {
    if (item.discrimination < 0) flags.push('negative_discrimination');
    else if (item.discrimination < 0.2) flags.push('low_discrimination');
  }
  if (item.meanCredit !== null && item.meanCredit < 0.2) flags.push('too_hard');
  if (item.meanCredit !== null && item.meanCredit > 0.95) flags.push('too_easy');
  const wrong = item.options.filter((option) => !option.correct);
  if (wrong.some((option) => option.chosen === 0)) flags.push('unused_distractor');
  if (item.topGroupSize > 0 && wrong.some((option) => option.chosenByTop * 2 > item.topGroupSize))
    flags.push('popular_distractor');
  return flags;
}

/** The weight by which steps are sorted, most attention first. */
export const attentionOf = (flags: readonly ItemFlag[]) => flags.reduce((sum, flag) => sum + FLAG_WEIGHT[flag], 0);
