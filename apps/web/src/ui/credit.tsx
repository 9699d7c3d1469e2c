import { formatCredit, type DecisionVerdict, type Verdict } from '@tradecraft/shared';
import { ThemeIcon } from '@mantine/core';
import { IconCheck, IconHourglass, IconMinus, IconRotateClockwise, IconX } from '@tabler/icons-react';

// Credit (0 to 1 per step) as every screen shows it: the player, the end screen, the report, the timelines.

export const VERDICT_WORDS: Record<Verdict, string> = { right: 'Right', partial: 'Partly right', wrong: 'Wrong' };

const VERDICT_COLOURS: Record<Verdict, string> = { right: 'green.8', partial: 'yellow.8', wrong: 'red.8' };

/** The mark beside an element of an answer; words beside it always say the same for screen readers. */
export function VerdictIcon({ verdict, size = 'sm' }: { verdict: Verdict | null; size?: 'xs' | 'sm' | 'md' }) {
  return (
    <ThemeIcon
      variant={verdict ? 'filled' : 'default'}
      color={verdict ? VERDICT_COLOURS[verdict] : 'gray'}
      radius="xl"
      size={size}
      mt={2}
      aria-hidden
      style={{ flexShrink: 0 }}
    >
      {verdict === 'right' ? (
        <IconCheck size={14} />
      ) : verdict === 'wrong' ? (
        <IconX size={14} />
      ) : verdict === 'partial' ? (
        <IconMinus size={14} />
      ) : null}
    </ThemeIcon>
  );
}

/** A share as a whole percent ("25 %"). */
export function formatShare(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** Full credit is right, some credit partly right, none wrong. */
export function creditVerdict(credit: number): Verdict {
  return credit >= 1 ? 'right' : credit > 0 ? 'partial' : 'wrong';
}

interface DecisionCredit {
  scored: boolean;
  firstSubmission: boolean;
  credit: number;
  hintUsed: boolean;
  reviewStatus: 'pending' | 'graded' | null;
}

/** What a recorded decision earned, in words: its credit (and the hint's charge), or why it earned none. */
export function decisionCreditText(entry: DecisionCredit): string {
  if (!entry.scored) return 'Not scored';
  if (!entry.firstSubmission) return 'Later answer: no credit';
  const hint = entry.hintUsed ? ' (hint opened)' : '';
  if (entry.reviewStatus === 'pending') return `${formatCredit(entry.credit)} so far${hint}`;
  return `Credit ${formatCredit(entry.credit)}${hint}`;
}

/**
 * The mark of a recorded decision, drawn from THE verdict the server sent: right (a hint used or not), partly
 * right, wrong; no mark for an answer after Retry, one awaiting review or one not scored (its words say which).
 */
export function verdictMark(verdict: DecisionVerdict): Verdict | null {
  if (verdict === 'right') return 'right';
  if (verdict === 'partly-right') return 'partial';
  if (verdict === 'wrong') return 'wrong';
  return null;
}

/** The mark of a recorded decision's verdict; words beside it (verdictWords) always say the same. */
export function DecisionVerdictIcon({ verdict, size = 'md' }: { verdict: DecisionVerdict; size?: 'xs' | 'sm' | 'md' }) {
  const mark = verdictMark(verdict);
  if (mark) return <VerdictIcon verdict={mark} size={size} />;
  return (
    <ThemeIcon
      variant="light"
      color={verdict === 'awaiting-review' ? 'blue' : 'gray'}
      radius="xl"
      size={size}
      mt={2}
      aria-hidden
      style={{ flexShrink: 0 }}
    >
      {verdict === 'awaiting-review' ? (
        <IconHourglass size={14} />
      ) : verdict === 'after-retry' ? (
        <IconRotateClockwise size={14} />
      ) : (
        <IconMinus size={14} />
      )}
    </ThemeIcon>
  );
}
