import * as z from 'zod';
import { ACH_MARKS, ESTIMATE_TERMS, EXTRACT_FIELD_TYPES, RELIABILITY_GRADES, SKILLS } from './step-kinds';

/** The types the product draws in their own colour; any other short text is allowed and drawn grey. */
export const SCENARIO_TYPES = [
  'Ransomware',
  'Data Breach',
  'Hacktivism',
  'Insider Threat',
  'Phishing',
  'Foreign Adversary',
] as const;

export type KnownScenarioType = (typeof SCENARIO_TYPES)[number];

export const ARTIFACT_KINDS = [
  'report',
  'forum-post',
  'feed',
  'log',
  'email',
  'chat',
  'other',
  /** Passive DNS records. */
  'dns',
  /** A WHOIS registration record. */
  'whois',
  /** A STIX 2.1 object or bundle; `content` holds its JSON text. */
  'stix',
] as const;

export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** TLP 2.0 labels, most restrictive first (drawn as the standard banner). */
export const TLP_LABELS = ['RED', 'AMBER+STRICT', 'AMBER', 'GREEN', 'CLEAR'] as const;
export type TlpLabel = (typeof TLP_LABELS)[number];

/** An Admiralty (NATO) source grade: reliability A-F then credibility 1-6, such as `B2`. */
export const ADMIRALTY_PATTERN = /^[A-F][1-6]$/;

export const SCENARIO_ID_PATTERN = /^[a-z0-9-]{3,64}$/;
export const STEP_ID_PATTERN = /^[a-z0-9-]{1,64}$/;

// Single-line fields are trimmed so a folded YAML scalar's trailing newline never reaches the screen.
const line = (max: number) => z.string().trim().min(1).max(max);
const optionalLine = (max: number) => z.string().trim().max(max).optional();

export const ScenarioSourceSchema = z.strictObject({
  title: line(200),
  url: z.url({
    protocol: /^https?$/,
    error: (issue) =>
      issue.code === 'invalid_format' ? 'must be a web address starting with http:// or https://' : undefined,
  }),
});

export const ArtifactIndicatorSchema = z.strictObject({
  type: line(40),
  value: line(500),
  context: optionalLine(300),
});

export const ScenarioArtifactSchema = z.strictObject({
  kind: z.enum(ARTIFACT_KINDS),
  title: optionalLine(160),
  source: optionalLine(160),
  date: optionalLine(60),
  // Not trimmed: a log or an email keeps its layout.
  content: z.string().min(1).max(8000),
  indicators: z.array(ArtifactIndicatorSchema).max(50).optional(),
  /** The TLP 2.0 label the artifact was shared under, drawn as the standard banner. */
  tlp: z.enum(TLP_LABELS).optional(),
  /** The Admiralty grade the artifact came with (such as `B2`), drawn as a badge. */
  admiralty: z
    .string()
    .regex(ADMIRALTY_PATTERN, { error: 'must be a reliability A-F then a credibility 1-6, such as B2' })
    .optional(),
});

const OptionTextSchema = line(500);
const FeedbackSchema = z.string().trim().max(1000).optional();
const CreditSchema = z.number().min(0).max(1);
const StepIdRefSchema = z.string();

/** The object form of a choice option (the checked form of every option). */
export const ScenarioOptionObjectSchema = z.strictObject({
  text: OptionTextSchema,
  // null = Retry (stay on this step); absent = the following step in file order.
  next_step: z.string().nullable().optional(),
  feedback: FeedbackSchema,
  /** A defensible second best earns this credit (below the correct option's 1); other wrong options earn 0. */
  credit: CreditSchema.optional(),
});

/** An option as written: a plain string is shorthand for `{ text }` and is normalised to that object. */
export const ScenarioOptionSchema = z.union([
  OptionTextSchema.transform((text): z.output<typeof ScenarioOptionObjectSchema> => ({ text })),
  ScenarioOptionObjectSchema,
]);

/** A multi option: `correct: true` marks each option that applies (one or more). */
export const MultiOptionObjectSchema = z.strictObject({
  text: OptionTextSchema,
  correct: z.boolean().optional(),
  feedback: FeedbackSchema,
});
export const MultiOptionSchema = z.union([
  OptionTextSchema.transform((text): z.output<typeof MultiOptionObjectSchema> => ({ text })),
  MultiOptionObjectSchema,
]);

/** A rank item; the file order is the right order. */
export const RankOptionObjectSchema = z.strictObject({ text: OptionTextSchema, feedback: FeedbackSchema });
export const RankOptionSchema = z.union([
  OptionTextSchema.transform((text): z.output<typeof RankOptionObjectSchema> => ({ text })),
  RankOptionObjectSchema,
]);

/** Kinds other than choice: a first submission under `credit` goes to `next_step` (a consequence). */
export const BelowBranchSchema = z.strictObject({ credit: CreditSchema, next_step: StepIdRefSchema });

/** What every step kind has. */
const stepCommon = {
  id: z.string().regex(STEP_ID_PATTERN, {
    error: 'must be 1 to 64 characters, using only a-z, 0-9 and -',
  }),
  title: line(160),
  description: z.string().trim().min(1).max(2000),
  artifacts: z.array(ScenarioArtifactSchema).max(8).optional(),
  /** Revealed only on request (POST /api/runs/:id/hint); opened before answering it costs `hint_cost`. */
  hint: z.string().trim().max(500).optional(),
  mitre_attack: z.string().trim().optional(),
  /** The analyst skill the step trains; absent: the kind's default (DEFAULT_SKILL_BY_KIND). */
  skill: z.enum(SKILLS).optional(),
  /** false: a briefing or consequence to read and acknowledge; it earns and counts nothing. */
  scored: z.boolean().optional(),
  /** This step's hint cost (0 to 1), overriding the scenario's. */
  hint_cost: CreditSchema.optional(),
  /** The explanation shown after the first submission (choice options also carry their own). */
  feedback: FeedbackSchema,
};

/** Where kinds other than choice go next: `next_step` (absent: the following step), `below` for a weak answer. */
const stepFlow = {
  next_step: StepIdRefSchema.optional(),
  below: BelowBranchSchema.optional(),
};

export const ChoiceStepSchema = z.strictObject({
  kind: z.literal('choice').default('choice'),
  ...stepCommon,
  options: z.array(ScenarioOptionSchema).min(2).max(6),
  correct_option: z.int(),
});

export const MultiStepSchema = z.strictObject({
  kind: z.literal('multi'),
  ...stepCommon,
  ...stepFlow,
  options: z.array(MultiOptionSchema).min(2).max(8),
});

export const RankStepSchema = z.strictObject({
  kind: z.literal('rank'),
  ...stepCommon,
  ...stepFlow,
  options: z.array(RankOptionSchema).min(3).max(8),
});

export const EstimateStepSchema = z.strictObject({
  kind: z.literal('estimate'),
  ...stepCommon,
  ...stepFlow,
  /** The proposition the trainee estimates ("APT29 will target the finance team within 30 days"). */
  statement: line(500),
  /** Also ask for a confidence level (low, moderate, high); it is recorded, not graded. */
  ask_confidence: z.boolean().optional(),
  /** The defensible terms given the evidence. */
  accept: z.array(z.enum(ESTIMATE_TERMS)).min(1).max(7),
  /** What happened, per the sources: the statement turned out true or false (for calibration). */
  outcome: z.boolean(),
});

export const GradeSourceStepSchema = z.strictObject({
  kind: z.literal('grade-source'),
  ...stepCommon,
  ...stepFlow,
  /** The index (from 0) of the graded artifact in this step's `artifacts`. */
  artifact: z.int().min(0),
  reliability: z.enum(RELIABILITY_GRADES),
  credibility: z.int().min(1).max(6),
});

export const ExtractFieldSchema = z.strictObject({
  label: line(120),
  type: z.enum(EXTRACT_FIELD_TYPES),
  /** Every accepted value; answers and these are normalised the same way before comparing. */
  accept: z.array(line(500)).min(1).max(20),
});

export const ExtractStepSchema = z.strictObject({
  kind: z.literal('extract'),
  ...stepCommon,
  ...stepFlow,
  fields: z.array(ExtractFieldSchema).min(1).max(6),
});

export const AchEvidenceSchema = z.strictObject({
  text: line(500),
  /** Where the finding comes from (not shown before the answer); two rows of one source must not repeat one judgement. */
  source: line(160).optional(),
  /** One mark per hypothesis, in the order of `hypotheses`. */
  marks: z.array(z.enum(ACH_MARKS)).min(2).max(5),
});

export const AchStepSchema = z.strictObject({
  kind: z.literal('ach'),
  ...stepCommon,
  ...stepFlow,
  hypotheses: z.array(line(300)).min(2).max(5),
  evidence: z.array(AchEvidenceSchema).min(2).max(8),
  /** The index (from 0) of the most likely hypothesis. */
  best: z.int().min(0),
});

export const WriteChecksSchema = z.strictObject({
  /** The text must start with a TLP 2.0 marking. */
  tlp: z.boolean().optional(),
  /** Likelihood words outside the seven ICD 203 terms are flagged by place. */
  estimative_language: z.boolean().optional(),
  /** Names, indicators or technique ids that must appear (case-insensitive). */
  must_mention: z.array(line(200)).max(20).optional(),
});

export const RubricCriterionSchema = z.strictObject({
  criterion: line(300),
  points: z.int().min(1).max(100),
});

export const WriteStepSchema = z.strictObject({
  kind: z.literal('write'),
  ...stepCommon,
  ...stepFlow,
  /** What to write, for whom. */
  prompt: z.string().trim().min(1).max(2000),
  /** The word limit, checked automatically. */
  max_words: z.int().min(10).max(2000),
  checks: WriteChecksSchema.optional(),
  rubric: z.array(RubricCriterionSchema).min(1).max(10),
  /** Shown to the trainee after submission, and to the instructor grading it. */
  model_answer: z.string().trim().min(1).max(8000),
  /** The share of the credit the automatic checks give (default 0.3); the rubric gives the rest. */
  auto_weight: CreditSchema.optional(),
});

export const ScenarioStepSchema = z.discriminatedUnion('kind', [
  ChoiceStepSchema,
  MultiStepSchema,
  RankStepSchema,
  EstimateStepSchema,
  GradeSourceStepSchema,
  ExtractStepSchema,
  AchStepSchema,
  WriteStepSchema,
]);

export const ScenarioSchema = z.strictObject({
  id: z
    .string()
    .regex(SCENARIO_ID_PATTERN, { error: 'must be 3 to 64 characters, using only a-z, 0-9 and -' })
    .optional(),
  name: line(120),
  type: line(40),
  difficulty: z.int().min(1).max(5),
  description: z.string().trim().min(1).max(400),
  sources: z.array(ScenarioSourceSchema).max(10).optional(),
  /** What a hint opened before answering costs (0 to 1; default 0.25; 0 makes hints free). */
  hint_cost: CreditSchema.optional(),
  steps: z.array(ScenarioStepSchema).min(1).max(60),
});

/** A scenario file as an author may write it (plain-string options, `kind` absent for choice). */
export type ScenarioFile = z.input<typeof ScenarioSchema>;
/** A checked scenario: every option is an object, every step has its `kind`. */
export type ScenarioDefinition = z.output<typeof ScenarioSchema>;
export type ScenarioStep = z.output<typeof ScenarioStepSchema>;
export type ChoiceStep = z.output<typeof ChoiceStepSchema>;
export type MultiStep = z.output<typeof MultiStepSchema>;
export type RankStep = z.output<typeof RankStepSchema>;
export type EstimateStep = z.output<typeof EstimateStepSchema>;
export type GradeSourceStep = z.output<typeof GradeSourceStepSchema>;
export type ExtractStep = z.output<typeof ExtractStepSchema>;
export type AchStep = z.output<typeof AchStepSchema>;
export type WriteStep = z.output<typeof WriteStepSchema>;
/** A step of one kind. */
export type StepOfKind<K extends ScenarioStep['kind']> = Extract<ScenarioStep, { kind: K }>;
export type ScenarioOption = z.output<typeof ScenarioOptionSchema>;
export type MultiOption = z.output<typeof MultiOptionSchema>;
export type RankOption = z.output<typeof RankOptionSchema>;
export type ExtractField = z.output<typeof ExtractFieldSchema>;
export type AchEvidence = z.output<typeof AchEvidenceSchema>;
export type RubricCriterion = z.output<typeof RubricCriterionSchema>;
export type WriteChecks = z.output<typeof WriteChecksSchema>;
export type BelowBranch = z.output<typeof BelowBranchSchema>;
export type ScenarioArtifact = z.output<typeof ScenarioArtifactSchema>;
export type ArtifactIndicator = z.output<typeof ArtifactIndicatorSchema>;
export type ScenarioSource = z.output<typeof ScenarioSourceSchema>;
