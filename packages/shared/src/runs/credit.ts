import {
  ESTIMATE_TERMS,
  TLP_MARKINGS,
  type AchMark,
  type EstimateTerm,
  type ExtractFieldType,
  type ReliabilityGrade,
  RELIABILITY_GRADES,
} from '../scenarios/step-kinds';

// The credit rules of every step kind, as pure functions of the key and the answer (in FILE order: the run
// engine maps shown indexes back before calling them). A credit is a number from 0 to 1; the run keeps it in
// exact thousandths (toThousandths).

/** A credit in whole thousandths, clamped to 0..1000 (the run stores credits and scores this way). */
export function toThousandths(credit: number): number {
  if (!Number.isFinite(credit)) return 0;
  return Math.min(1000, Math.max(0, Math.round(credit * 1000)));
}

/** The credit after a hint opened before the first submission: credit x (1 - cost), in thousandths. */
export function chargeHint(creditThousandths: number, hintCost: number): number {
  const cost = Math.min(1, Math.max(0, hintCost));
  return Math.round(creditThousandths * (1 - cost));
}

// --- choice ---------------------------------------------------------------------------------------------

/** The picked option's credit: 1 for `correct_option`, else the option's own `credit`, else 0. */
export function choiceCredit(
  step: { options: ReadonlyArray<{ credit?: number | undefined }>; correct_option: number },
  optionIndex: number,
): number {
  if (optionIndex === step.correct_option) return 1;
  return step.options[optionIndex]?.credit ?? 0;
}

// --- multi ----------------------------------------------------------------------------------------------

/** max(0, (right picked - wrong picked) / right count); nothing picked earns 0, everything picked earns little. */
export function multiCredit(
  correct: readonly boolean[],
  selected: readonly number[],
): { credit: number; rightPicked: number; wrongPicked: number; rightCount: number } {
  const picked = new Set(selected);
  const rightCount = correct.filter(Boolean).length;
  let rightPicked = 0;
  let wrongPicked = 0;
  for (const index of picked) {
    if (correct[index]) rightPicked += 1;
    else if (index >= 0 && index < correct.length) wrongPicked += 1;
  }
  const credit = rightCount === 0 ? 0 : Math.max(0, (rightPicked - wrongPicked) / rightCount);
  return { credit, rightPicked, wrongPicked, rightCount };
}

// --- rank -----------------------------------------------------------------------------------------------

/**
 * 1 - discordant pairs / all pairs (Kendall's distance) for `order`, the FILE indexes in the order the trainee
 * put them (the file order is the right order): the right order earns 1, the reversed order 0.
 */
export function rankCredit(order: readonly number[]): { credit: number; discordantPairs: number; totalPairs: number } {
  const n = order.length;
  const totalPairs = (n * (n - 1)) / 2;
  let discordantPairs = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if ((order[i] ?? 0) > (order[j] ?? 0)) discordantPairs += 1;
    }
  }
  return { credit: totalPairs === 0 ? 1 : 1 - discordantPairs / totalPairs, discordantPairs, totalPairs };
}

// --- estimate -------------------------------------------------------------------------------------------

/** How many terms `term` is from the nearest accepted term on the ICD 203 scale (0 when accepted). */
export function termDistance(term: EstimateTerm, accept: readonly EstimateTerm[]): number {
  const at = ESTIMATE_TERMS.indexOf(term);
  return Math.min(...accept.map((accepted) => Math.abs(ESTIMATE_TERMS.indexOf(accepted) - at)));
}

/** 1 inside `accept`, 0.5 one term outside it, else 0. */
export function estimateCredit(term: EstimateTerm, accept: readonly EstimateTerm[]): number {
  const distance = termDistance(term, accept);
  if (distance === 0) return 1;
  return distance === 1 ? 0.5 : 0;
}

/** The Brier score of estimates: the mean of (p - outcome)^2; null when there are none. */
export function brierScore(estimates: ReadonlyArray<{ probability: number; outcome: boolean }>): number | null {
  if (estimates.length === 0) return null;
  const sum = estimates.reduce((total, { probability, outcome }) => total + (probability - (outcome ? 1 : 0)) ** 2, 0);
  return sum / estimates.length;
}

// --- grade-source ---------------------------------------------------------------------------------------

/** One Admiralty axis: exact 1, adjacent 0.5 (A-E and 1-5 only: F and 6 count exact only), else 0. */
export function gradeAxisCredit(given: number, key: number, cannotJudge: number): number {
  if (given === key) return 1;
  if (given === cannotJudge || key === cannotJudge) return 0;
  return Math.abs(given - key) === 1 ? 0.5 : 0;
}

/** The mean of the two axes. */
export function gradeSourceCredit(
  given: { reliability: ReliabilityGrade; credibility: number },
  key: { reliability: ReliabilityGrade; credibility: number },
): { credit: number; reliability: number; credibility: number } {
  const reliability = gradeAxisCredit(
    RELIABILITY_GRADES.indexOf(given.reliability),
    RELIABILITY_GRADES.indexOf(key.reliability),
    RELIABILITY_GRADES.indexOf('F'),
  );
  const credibility = gradeAxisCredit(given.credibility, key.credibility, 6);
  return { credit: (reliability + credibility) / 2, reliability, credibility };
}

// --- extract --------------------------------------------------------------------------------------------

/** Undoes the usual defanging: hxxp -> http, [.] (.) {.} -> ., [@] -> @, [:] -> :. */
export function refang(value: string): string {
  return value
    .replace(/\bhxxp(s?)/gi, (_match, s: string) => `http${s}`)
    .replace(/\[\.\]|\(\.\)|\{\.\}/g, '.')
    .replace(/\[@\]/g, '@')
    .replace(/\[:\]/g, ':');
}

function canonicalIpv4(value: string): string | null {
  const parts = value.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return null;
  return parts.map((part) => String(Number(part))).join('.');
}

/** RFC 5952 form of an IPv6 address (lower case, no leading zeros, the longest run of zero groups as ::). */
function canonicalIpv6(value: string): string | null {
  let text = value.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two hex groups.
  const tail = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const ipv4 = canonicalIpv4(tail[2] ?? '');
    if (!ipv4) return null;
    const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
    text = `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  if (![...head, ...rest].every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...rest].map((group) =>
    parseInt(group, 16).toString(16),
  );

  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < 8;) {
    if (groups[start] !== '0') {
      start += 1;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === '0') end += 1;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  if (bestLength < 2) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLength).join(':')}`;
}

/** An IP address in canonical form (IPv4 without leading zeros, IPv6 per RFC 5952); null when it is not one. */
export function canonicalIp(value: string): string | null {
  const text = value.trim().replace(/^\[|\]$/g, '');
  return text.includes(':') ? canonicalIpv6(text) : canonicalIpv4(text);
}

/**
 * A value as an extract field compares it: trimmed and refanged; domains, emails, hashes and URL hosts in lower
 * case; a domain's trailing dot dropped; IP addresses canonical; CVE and technique ids upper case; text in lower
 * case with runs of white space collapsed.
 */
export function normaliseIndicator(type: ExtractFieldType, value: string): string {
  const text = refang(value.trim());
  switch (type) {
    case 'domain':
      return text.toLowerCase().replace(/\.$/, '');
    case 'email':
    case 'hash':
      return text.toLowerCase();
    case 'ip':
      return canonicalIp(text) ?? text.toLowerCase();
    case 'url': {
      const parts = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/i.exec(text);
      if (!parts) return text;
      const host = (parts[2] ?? '').toLowerCase().replace(/\.(?=(:\d+)?$)/, '');
      return `${(parts[1] ?? '').toLowerCase()}${host}${parts[3] ?? ''}`;
    }
    case 'cve':
    case 'technique':
      return text.toUpperCase();
    case 'text':
      return text.toLowerCase().replace(/\s+/g, ' ');
  }
}

/** Whether a value matches any accepted value after normalising both. */
export function extractFieldRight(type: ExtractFieldType, given: string, accept: readonly string[]): boolean {
  const normalised = normaliseIndicator(type, given);
  if (normalised === '') return false;
  return accept.some((accepted) => normaliseIndicator(type, accepted) === normalised);
}

/** The share of fields right. */
export function extractCredit(
  fields: ReadonlyArray<{ type: ExtractFieldType; accept: readonly string[] }>,
  values: readonly string[],
): number {
  if (fields.length === 0) return 0;
  const right = fields.filter((field, index) =>
    extractFieldRight(field.type, values[index] ?? '', field.accept),
  ).length;
  return right / fields.length;
}

// --- ach ------------------------------------------------------------------------------------------------

/** 0.5 x the share of cells matching the key + 0.5 when the best hypothesis was picked; an empty cell is wrong. */
export function achCredit(
  key: { marks: ReadonlyArray<readonly AchMark[]>; best: number },
  given: { marks: ReadonlyArray<ReadonlyArray<AchMark | null>>; best: number },
): { credit: number; cellsRight: number; cellCount: number } {
  let cellsRight = 0;
  let cellCount = 0;
  key.marks.forEach((row, rowIndex) => {
    row.forEach((mark, column) => {
      cellCount += 1;
      if (given.marks[rowIndex]?.[column] === mark) cellsRight += 1;
    });
  });
  const cells = cellCount === 0 ? 0 : cellsRight / cellCount;
  return { credit: 0.5 * cells + (given.best === key.best ? 0.5 : 0), cellsRight, cellCount };
}

// --- write ----------------------------------------------------------------------------------------------

/** Likelihood words that are not ICD 203 terms (flagged by the estimative-language check). */
export const VAGUE_LIKELIHOOD_WORDS = [
  'possibly',
  'possible',
  'maybe',
  'might',
  'could',
  'probably',
  'probable',
  'perhaps',
  'potentially',
  'presumably',
  'conceivably',
] as const;

export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

export interface WriteCheckOutcome {
  check: 'tlp' | 'estimative_language' | 'must_mention' | 'max_words';
  passed: boolean;
  reason: string | null;
  places: Array<{ word: string; index: number }>;
}

/**
 * The automatic checks a write step asks for, in order: the TLP marking, estimative language (every vague
 * likelihood word with its character offset), the terms to mention, and the word limit (always). An empty text
 * passes none of them.
 */
export function writeChecks(
  step: {
    max_words: number;
    checks?:
      | {
          tlp?: boolean | undefined;
          estimative_language?: boolean | undefined;
          must_mention?: readonly string[] | undefined;
        }
      | undefined;
  },
  text: string,
): WriteCheckOutcome[] {
  const empty = text.trim() === '';
  const outcomes: WriteCheckOutcome[] = [];
  const nothing = 'Nothing was written.';
  if (step.checks?.tlp) {
    const start = text.trimStart();
    const marking = [...TLP_MARKINGS]
      .sort((a, b) => b.length - a.length)
      .find((label) => start.startsWith(label) && !/^[A-Za-z0-9+]/.test(start.slice(label.length)));
    outcomes.push({
      check: 'tlp',
      passed: !empty && marking !== undefined,
      reason: empty ? nothing : marking ? null : `Start with a TLP 2.0 marking: ${TLP_MARKINGS.join(', ')}.`,
      places: [],
    });
  }
  if (step.checks?.estimative_language) {
    const places: Array<{ word: string; index: number }> = [];
    const pattern = new RegExp(`\\b(${VAGUE_LIKELIHOOD_WORDS.join('|')})\\b`, 'gi');
    for (const match of text.matchAll(pattern)) places.push({ word: match[0], index: match.index });
    outcomes.push({
      check: 'estimative_language',
      passed: !empty && places.length === 0,
      reason: empty
        ? nothing
        : places.length === 0
          ? null
          : `Say how likely with one of the seven ICD 203 terms instead of ${[...new Set(places.map((place) => `"${place.word.toLowerCase()}"`))].join(', ')}.`,
      places,
    });
  }
  const mustMention = step.checks?.must_mention ?? [];
  if (mustMention.length > 0) {
    const haystack = refang(text).toLowerCase();
    const missing = mustMention.filter((term) => !haystack.includes(refang(term).toLowerCase()));
    outcomes.push({
      check: 'must_mention',
      passed: !empty && missing.length === 0,
      reason: empty
        ? nothing
        : missing.length === 0
          ? null
          : `Mention ${missing.map((term) => `"${term}"`).join(', ')}.`,
      places: [],
    });
  }
  const words = countWords(text);
  outcomes.push({
    check: 'max_words',
    passed: !empty && words <= step.max_words,
    reason: empty ? nothing : words <= step.max_words ? null : `${words} words; at most ${step.max_words}.`,
    places: [],
  });
  return outcomes;
}

/** The automatic share of a write step's credit: auto_weight x the share of checks passed. */
export function writeAutoCredit(checks: readonly { passed: boolean }[], autoWeight: number): number {
  if (checks.length === 0) return 0;
  return (autoWeight * checks.filter((check) => check.passed).length) / checks.length;
}

/** The final credit once graded: auto share + (1 - auto_weight) x rubric points / maximum. */
export function writeFinalCredit(
  autoCredit: number,
  autoWeight: number,
  points: readonly number[],
  rubric: readonly { points: number }[],
): number {
  const maximum = rubric.reduce((sum, criterion) => sum + criterion.points, 0);
  const earned = points.reduce((sum, value, index) => sum + Math.min(value, rubric[index]?.points ?? 0), 0);
  return Math.min(1, autoCredit + (maximum === 0 ? 0 : ((1 - autoWeight) * earned) / maximum));
}

/** 0.75, 0.5, 1: a credit as people read it. */
export function formatCredit(credit: number): string {
  return String(Math.round(credit * 1000) / 1000);
}

export * from './write-brief';
