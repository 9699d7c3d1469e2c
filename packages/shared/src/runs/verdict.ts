// THE verdict of one recorded answer, decided once (docs/scoring.md). The server works it out from the answer's
// record and sends it; the end screen, the debrief, the after-action report, the dashboard, the skill map and
// Training Progress all count and draw these verdicts and never decide one of their own. No zod here: the pages
// that only draw a verdict load this module alone.

/**
 * - right: the first answer of a visit earned full credit from the answer itself (a hint's charge does not
 *   change it; the hint is shown beside it, "Right, hint used");
 * - partly-right: the first answer earned some credit from the answer itself, less than full;
 * - wrong: the first answer earned nothing from the answer itself;
 * - after-retry: a later answer on the same visit (after Retry): it earns nothing and never counts as a right
 *   first answer, whatever it says;
 * - awaiting-review: a written first answer an instructor has not graded yet;
 * - not-scored: an answer on a step that is not scored (a briefing to acknowledge).
 */
export const DECISION_VERDICTS = [
  'right',
  'partly-right',
  'wrong',
  'after-retry',
  'awaiting-review',
  'not-scored',
] as const;
export type DecisionVerdict = (typeof DECISION_VERDICTS)[number];

/** What decides a verdict, as the run keeps it for every answer. */
export interface VerdictFacts {
  /** The step is scored. */
  scored: boolean;
  /** The visit's first submission (later ones come after a Retry). */
  firstSubmission: boolean;
  /** The credit the answer itself is worth, before any hint charge, in thousandths (0 to 1000). */
  rawThousandths: number;
  /** A written answer that waits for an instructor. */
  reviewPending: boolean;
}

/** The verdict of one answer. */
export function decisionVerdict(facts: VerdictFacts): DecisionVerdict {
  if (!facts.scored) return 'not-scored';
  if (!facts.firstSubmission) return 'after-retry';
  if (facts.reviewPending) return 'awaiting-review';
  if (facts.rawThousandths >= 1000) return 'right';
  return facts.rawThousandths > 0 ? 'partly-right' : 'wrong';
}

/** A missed step: its first answer earned less than full credit from the answer itself (and is not awaiting review). */
export function isMissedVerdict(verdict: DecisionVerdict): boolean {
  return verdict === 'partly-right' || verdict === 'wrong';
}

/** The verdicts that are a first answer on a scored step (what a step's right/missed counts divide by). */
export function isCountedVerdict(verdict: DecisionVerdict): boolean {
  return verdict === 'right' || verdict === 'partly-right' || verdict === 'wrong' || verdict === 'awaiting-review';
}

export const DECISION_VERDICT_LABELS: Record<DecisionVerdict, string> = {
  right: 'Right',
  'partly-right': 'Partly right',
  wrong: 'Wrong',
  'after-retry': 'After Retry',
  'awaiting-review': 'Awaiting review',
  'not-scored': 'Not scored',
};

/** The verdict in words, with the hint beside it when one was charged: "Right, hint used". */
export function verdictWords(verdict: DecisionVerdict, hintUsed: boolean): string {
  const label = DECISION_VERDICT_LABELS[verdict];
  return hintUsed && isCountedVerdict(verdict) ? `${label}, hint used` : label;
}

/** How many answers of each verdict. */
export interface VerdictCounts {
  /** Right first answers (a hint used or not). */
  right: number;
  partlyRight: number;
  wrong: number;
  /** Later answers after a Retry: recorded, never credited. */
  afterRetry: number;
  awaitingReview: number;
}

export function countVerdicts(verdicts: Iterable<DecisionVerdict>): VerdictCounts {
  const counts: VerdictCounts = { right: 0, partlyRight: 0, wrong: 0, afterRetry: 0, awaitingReview: 0 };
  for (const verdict of verdicts) {
    if (verdict === 'right') counts.right += 1;
    else if (verdict === 'partly-right') counts.partlyRight += 1;
    else if (verdict === 'wrong') counts.wrong += 1;
    else if (verdict === 'after-retry') counts.afterRetry += 1;
    else if (verdict === 'awaiting-review') counts.awaitingReview += 1;
  }
  return counts;
}

/** Missed steps in counts: first answers partly right or wrong. */
export const missedCount = (counts: VerdictCounts) => counts.partlyRight + counts.wrong;

/** Calibration gives no verdict on a trainee's estimates before this many (docs/scoring.md, "Calibration"). */
export const CALIBRATION_MIN_ESTIMATES = 10;

/**
 * The Brier score in words, or null before CALIBRATION_MIN_ESTIMATES estimates (a few lucky estimates say
 * nothing). 0 is perfect; 0.25 is what always saying "roughly even chance" earns.
 */
export function calibrationVerdict(brier: number | null, estimates: number): string | null {
  if (brier === null || estimates < CALIBRATION_MIN_ESTIMATES) return null;
  if (brier <= 0.1) return 'well calibrated';
  if (brier <= 0.2) return 'fairly calibrated';
  if (brier <= 0.25) return 'no better than always saying "roughly even chance"';
  return 'worse than always saying "roughly even chance"';
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A run's answers by verdict in one sentence, the same on the end screen and in the report. */
export function verdictCountsInWords(counts: VerdictCounts): string {
  const parts = [
    plural(counts.right, 'right first answer', 'right first answers'),
    `${counts.partlyRight} partly right`,
    `${counts.wrong} wrong`,
  ];
  if (counts.awaitingReview > 0) parts.push(`${counts.awaitingReview} awaiting review`);
  if (counts.afterRetry > 0)
    parts.push(`${plural(counts.afterRetry, 'answer', 'answers')} after Retry (recorded, no credit)`);
  return parts.join(', ');
}
