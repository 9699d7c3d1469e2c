// The difficulty scale, without zod: the trainee's pages show these labels, and importing them must not build the
// API's schemas.

export const MIN_DIFFICULTY = 1;
export const MAX_DIFFICULTY = 5;
/** The difficulty slider's default, until an admin saves one. */
export const DEFAULT_DIFFICULTY = 3;

/** What each difficulty means to a trainee (1 novice .. 5 expert; docs/scenario-format.md). */
export const DIFFICULTY_LABELS: Record<number, string> = {
  1: 'Novice',
  2: 'Beginner',
  3: 'Intermediate',
  4: 'Advanced',
  5: 'Expert',
};
