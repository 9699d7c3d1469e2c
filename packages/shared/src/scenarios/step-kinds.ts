// The vocabulary of analyst steps: step kinds, skills, the ICD 203 likelihood terms, Admiralty grades,
// indicator types and ACH marks. Plain constants (no zod), so screens can import the labels cheaply.
// docs/scenario-format.md describes each kind for authors.

/** What a step asks the trainee to do. A step without `kind` is a `choice` step. */
export const STEP_KINDS = ['choice', 'multi', 'rank', 'estimate', 'grade-source', 'extract', 'ach', 'write'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** The kinds whose steps carry `options` (for the others options are not allowed). */
export const OPTION_STEP_KINDS = ['choice', 'multi', 'rank'] as const satisfies readonly StepKind[];

export const STEP_KIND_LABELS: Record<StepKind, string> = {
  choice: 'Decision',
  multi: 'Select all that apply',
  rank: 'Rank',
  estimate: 'Estimate',
  'grade-source': 'Grade the source',
  extract: 'Extract indicators',
  ach: 'Competing hypotheses',
  write: 'Write',
};

/** The analyst skills a step trains; `response` is incident handling. */
export const SKILLS = [
  'collection',
  'source-evaluation',
  'pivoting',
  'analysis',
  'estimation',
  'attribution',
  'prioritisation',
  'dissemination',
  'response',
] as const;
export type Skill = (typeof SKILLS)[number];

export const SKILL_LABELS: Record<Skill, string> = {
  collection: 'Collection',
  'source-evaluation': 'Source evaluation',
  pivoting: 'Pivoting',
  analysis: 'Analysis',
  estimation: 'Estimation',
  attribution: 'Attribution',
  prioritisation: 'Prioritisation',
  dissemination: 'Dissemination',
  response: 'Response',
};

/** The skill of a step that names none. */
export const DEFAULT_SKILL_BY_KIND: Record<StepKind, Skill> = {
  choice: 'response',
  multi: 'response',
  rank: 'prioritisation',
  estimate: 'estimation',
  'grade-source': 'source-evaluation',
  extract: 'pivoting',
  ach: 'analysis',
  write: 'dissemination',
};

/** A step's skill: its own `skill`, else its kind's default. */
export function stepSkill(step: { kind?: StepKind | undefined; skill?: Skill | undefined }): Skill {
  return step.skill ?? DEFAULT_SKILL_BY_KIND[step.kind ?? 'choice'];
}

/** What a hint costs when the scenario does not say: a hint opened before answering keeps 75 % of the credit. */
export const DEFAULT_HINT_COST = 0.25;
/** The share of a write step's credit given by its automatic checks when the step does not say. */
export const DEFAULT_AUTO_WEIGHT = 0.3;

// --- estimate ----------------------------------------------------------------------------------------

/** The seven ICD 203 expressions of likelihood, from least to most likely (file spelling). */
export const ESTIMATE_TERMS = [
  'almost-no-chance',
  'very-unlikely',
  'unlikely',
  'roughly-even-chance',
  'likely',
  'very-likely',
  'almost-certain',
] as const;
export type EstimateTerm = (typeof ESTIMATE_TERMS)[number];

export interface EstimateTermInfo {
  label: string;
  /** The ICD 203 range, as shown beside the term. */
  range: string;
  /** The probability calibration uses for the term (the middle of its range). */
  probability: number;
}

export const ESTIMATE_TERM_INFO: Record<EstimateTerm, EstimateTermInfo> = {
  'almost-no-chance': { label: 'Almost no chance', range: '1-5 %', probability: 0.03 },
  'very-unlikely': { label: 'Very unlikely', range: '5-20 %', probability: 0.125 },
  unlikely: { label: 'Unlikely', range: '20-45 %', probability: 0.325 },
  'roughly-even-chance': { label: 'Roughly even chance', range: '45-55 %', probability: 0.5 },
  likely: { label: 'Likely', range: '55-80 %', probability: 0.675 },
  'very-likely': { label: 'Very likely', range: '80-95 %', probability: 0.875 },
  'almost-certain': { label: 'Almost certain', range: '95-99 %', probability: 0.97 },
};

export const CONFIDENCE_LEVELS = ['low', 'moderate', 'high'] as const;
export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];

// --- grade-source --------------------------------------------------------------------------------------

/** Admiralty source reliability, A (completely reliable) to F (cannot be judged). */
export const RELIABILITY_GRADES = ['A', 'B', 'C', 'D', 'E', 'F'] as const;
export type ReliabilityGrade = (typeof RELIABILITY_GRADES)[number];

export const RELIABILITY_LABELS: Record<ReliabilityGrade, string> = {
  A: 'Completely reliable',
  B: 'Usually reliable',
  C: 'Fairly reliable',
  D: 'Not usually reliable',
  E: 'Unreliable',
  F: 'Reliability cannot be judged',
};

/** Admiralty information credibility, 1 (confirmed) to 6 (cannot be judged). */
export const CREDIBILITY_GRADES = [1, 2, 3, 4, 5, 6] as const;
export type CredibilityGrade = (typeof CREDIBILITY_GRADES)[number];

export const CREDIBILITY_LABELS: Record<CredibilityGrade, string> = {
  1: 'Confirmed by other sources',
  2: 'Probably true',
  3: 'Possibly true',
  4: 'Doubtful',
  5: 'Improbable',
  6: 'Truth cannot be judged',
};

// --- extract -------------------------------------------------------------------------------------------

/** What an extract field holds; it decides how answers are normalised before comparing. */
export const EXTRACT_FIELD_TYPES = ['domain', 'ip', 'url', 'email', 'hash', 'cve', 'technique', 'text'] as const;
export type ExtractFieldType = (typeof EXTRACT_FIELD_TYPES)[number];

// --- ach -------------------------------------------------------------------------------------------------

/** An ACH matrix cell: the evidence is Consistent, Inconsistent or Not applicable to the hypothesis. */
export const ACH_MARKS = ['C', 'I', 'N'] as const;
export type AchMark = (typeof ACH_MARKS)[number];

export const ACH_MARK_LABELS: Record<AchMark, string> = { C: 'Consistent', I: 'Inconsistent', N: 'Not applicable' };

// --- write -----------------------------------------------------------------------------------------------

/** The automatic checks of a write step, in the order they are shown. */
export const WRITE_CHECKS = ['tlp', 'estimative_language', 'must_mention', 'max_words'] as const;
export type WriteCheck = (typeof WRITE_CHECKS)[number];

/** The TLP 2.0 markings a written product may start with. */
export const TLP_MARKINGS = ['TLP:CLEAR', 'TLP:GREEN', 'TLP:AMBER', 'TLP:AMBER+STRICT', 'TLP:RED'] as const;

/** The longest text a write answer may carry (characters); longer is refused with 400. */
export const MAX_WRITE_TEXT_CHARS = 20_000;
