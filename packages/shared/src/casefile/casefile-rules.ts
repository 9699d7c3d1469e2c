// The case file's limits, messages and line rule, without zod: the player shows them and must not load the
// API's schemas for it (docs/architecture.md).

/** The longest notebook a run keeps, in characters (about ten pages of notes). */
export const MAX_NOTES_CHARS = 20_000;
/** The most pins one run's evidence board holds. */
export const MAX_PINS_PER_RUN = 100;

export const CASEFILE_MESSAGES = {
  runNotFound: 'Run not found.',
  notesTooLong: `The notebook holds at most ${MAX_NOTES_CHARS.toLocaleString('en')} characters. Shorten your notes and try again.`,
  notReached: 'That artifact is not in your case file.',
  lineNotFound: 'That line is not in the artifact.',
  alreadyPinned: 'That is already on your evidence board.',
  boardFull: `The evidence board holds at most ${MAX_PINS_PER_RUN} pins. Unpin one first.`,
  pinNotFound: 'That pin is not on your evidence board.',
} as const;

/** The lines of an artifact's text as pins number them (from 1), without the trailing blank line of a block. */
export function artifactLines(content: string): string[] {
  return content.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
}
