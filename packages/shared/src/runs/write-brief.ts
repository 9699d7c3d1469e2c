// What a write step tells the trainee before they write: what is assessed, never the answer. The rubric's
// criteria and the terms to mention are written for the instructor and often name the key ("TLP:AMBER+STRICT
// chosen", an address, a CVE), so before the answer the server sends each criterion in neutral words and each
// term only as the kind of thing to mention ("an IP address"). The full rubric comes with the result.
// No zod here: the player's write control reads these words and the live checks.

/** The kinds of thing a must-mention term is, as the trainee sees them before writing. */
export const MENTION_KINDS = ['ip', 'cve', 'technique', 'date', 'domain', 'handle', 'number', 'term'] as const;
export type MentionKind = (typeof MENTION_KINDS)[number];

export const MENTION_KIND_LABELS: Record<MentionKind, string> = {
  ip: 'an IP address from the case',
  cve: 'a CVE identifier',
  technique: 'an ATT&CK technique ID',
  date: 'a date (YYYY-MM-DD)',
  domain: 'a domain name from the case',
  handle: 'an account handle (@name)',
  number: 'a number from the case (a port, a count, an id)',
  term: 'a name or term from the case',
};

// How each kind is recognised in a term, and found in the trainee's text while they type (`term` has no shape
// that can be looked for without naming it: it is checked when the answer is submitted).
const MENTION_SHAPES: Array<{ kind: Exclude<MentionKind, 'term'>; term: RegExp; text: RegExp }> = [
  {
    kind: 'ip',
    term: /^\d{1,3}(?:\.\d{1,3}){3}$|^[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}$/i,
    text: /\b\d{1,3}(?:\.\d{1,3}){3}\b|\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\b/i,
  },
  { kind: 'cve', term: /^CVE-\d{4}-\d{4,}$/i, text: /\bCVE-\d{4}-\d{4,}\b/i },
  { kind: 'technique', term: /^T\d{4}(?:\.\d{3})?$/i, text: /\bT\d{4}(?:\.\d{3})?\b/i },
  { kind: 'date', term: /^\d{4}-\d{2}-\d{2}$/, text: /\b\d{4}-\d{2}-\d{2}\b/ },
  { kind: 'domain', term: /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i, text: /\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b/i },
  { kind: 'handle', term: /^@\w+$/, text: /(?:^|\s)@\w+/ },
  { kind: 'number', term: /^\d+$/, text: /\b\d+\b/ },
];

/** The kind of a must-mention term (defanged terms such as 198.51.100[.]7 read as their plain form). */
export function mentionKind(term: string): MentionKind {
  const plain = term
    .trim()
    .replace(/\[\.\]/g, '.')
    .replace(/^hxxp/i, 'http');
  return MENTION_SHAPES.find((shape) => shape.term.test(plain))?.kind ?? 'term';
}

/**
 * Whether a draft already contains something of the kind (null for `term`, which is checked on submission):
 * the live check the trainee sees while typing, which never names the expected value.
 */
export function draftMentions(kind: MentionKind, text: string): boolean | null {
  const shape = MENTION_SHAPES.find((candidate) => candidate.kind === kind);
  if (!shape) return null;
  return shape.text.test(text.replace(/\[\.\]/g, '.'));
}

const TLP_WORDS = /\bTLP\b|\bTLP:/i;

/**
 * A rubric criterion in words that say what is assessed without the answer: a criterion about the TLP marking
 * becomes "the TLP marking fits the audience"; otherwise the parenthesised specifics (the expected values, as
 * in "Actions concrete (rotate named secrets, ...)") are left out, with any dangling punctuation.
 */
export function neutralCriterion(criterion: string): string {
  if (TLP_WORDS.test(criterion)) return 'The TLP marking fits the audience and its sharing limits';
  const shorter = criterion
    .replace(/\s*\([^()]*\)/g, '')
    .replace(/\s+([,;:.])/g, '$1')
    .replace(/[,;:]\s*$/, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return shorter === '' ? 'Criterion' : shorter;
}
