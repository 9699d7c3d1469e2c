import type { StepKind } from '@tradecraft/shared';

/** Each kind's colour in the graph and the step list (always drawn beside the kind's name). */
export const KIND_COLORS: Record<StepKind, string> = {
  choice: 'blue',
  multi: 'cyan',
  rank: 'grape',
  estimate: 'orange',
  'grade-source': 'teal',
  extract: 'indigo',
  ach: 'violet',
  write: 'pink',
};
