import { z } from 'zod';
import { MENTION_KINDS } from './write-brief';
import { ARTIFACT_KINDS, TLP_LABELS } from '../scenarios/scenario.schema';
import {
  ACH_MARKS,
  CONFIDENCE_LEVELS,
  ESTIMATE_TERMS,
  EXTRACT_FIELD_TYPES,
  MAX_WRITE_TEXT_CHARS,
  RELIABILITY_GRADES,
  SKILLS,
  STEP_KINDS,
  WRITE_CHECKS,
} from '../scenarios/step-kinds';
import { MAX_ANSWER_TIME_MS } from './run-messages';

// The run API's contract for every step kind:
//   1. the answer a trainee posts (POST /api/runs/:id/answer), per kind;
//   2. the step as the trainee sees it before answering (no key of any kind), per kind;
//   3. the result of the first submission: the credit, the revealed key and per-element feedback, per kind.
// Indexes in answers are indexes AS SHOWN (options of choice, multi and rank steps are shown in a per-run
// shuffle); results speak in the same shown indexes, so the player never needs the file order.

// --- 1. Answers --------------------------------------------------------------------------------------

const stepIdField = z
  .string({ error: 'Say which step you are answering.' })
  .min(1, 'Say which step you are answering.')
  .max(64, 'That step is not the current step of this run.');

const timeMsField = z
  .int({ error: 'The answer time must be a whole number of milliseconds.' })
  .min(0, 'The answer time cannot be negative.')
  .max(MAX_ANSWER_TIME_MS, 'The answer time must be at most a day.');

const shownIndex = z
  .int({ error: 'Use the index of an option as shown.' })
  .min(0, 'Use the index of an option as shown.')
  .max(7, 'That option does not exist on this step.');

/** choice: the index (as shown) of the one option picked. */
export const choiceAnswerFields = { optionIndex: shownIndex };
/** multi: the indexes (as shown) of every option selected; an empty list is an answer (nothing applies). */
export const multiAnswerFields = { selected: z.array(shownIndex).max(8) };
/** rank: every index (as shown) once, the first at the top (most urgent, most likely...). */
export const rankAnswerFields = { order: z.array(shownIndex).min(1).max(8) };
/** estimate: one of the seven ICD 203 terms, and a confidence when the step asks for one. */
export const estimateAnswerFields = {
  term: z.enum(ESTIMATE_TERMS, { error: 'Choose one of the seven likelihood terms.' }),
  confidence: z.enum(CONFIDENCE_LEVELS, { error: 'Confidence is low, moderate or high.' }).optional(),
};
/** grade-source: the Admiralty grade of the step's artifact. */
export const gradeSourceAnswerFields = {
  reliability: z.enum(RELIABILITY_GRADES, { error: 'Reliability is a letter from A to F.' }),
  credibility: z
    .int({ error: 'Credibility is a number from 1 to 6.' })
    .min(1, 'Credibility is a number from 1 to 6.')
    .max(6, 'Credibility is a number from 1 to 6.'),
};
/** extract: one value per field, in the step's field order (an empty string leaves a field blank). */
export const extractAnswerFields = {
  values: z.array(z.string().max(2000, 'A value is at most 2,000 characters.')).min(1).max(6),
};
/** ach: one row of C/I/N marks per evidence row (one mark per hypothesis), and the most likely hypothesis. */
export const achAnswerFields = {
  // A cell may be null (left empty): it counts as wrong.
  marks: z.array(z.array(z.enum(ACH_MARKS, { error: 'Mark each cell C, I or N.' }).nullable()).max(5)).max(8),
  best: z
    .int({ error: 'Pick the most likely hypothesis.' })
    .min(0, 'Pick the most likely hypothesis.')
    .max(4, 'That hypothesis does not exist.'),
};
/** write: the written product. */
export const writeAnswerFields = {
  text: z
    .string()
    .max(MAX_WRITE_TEXT_CHARS, `The text is at most ${MAX_WRITE_TEXT_CHARS.toLocaleString('en')} characters.`),
};

const answerBase = { stepId: stepIdField, timeMs: timeMsField };

/** The answer to one kind of step, with exactly that kind's fields (anything else is refused). */
export const answerByKindSchemas = {
  choice: z.strictObject({ ...answerBase, kind: z.literal('choice').optional(), ...choiceAnswerFields }),
  multi: z.strictObject({ ...answerBase, kind: z.literal('multi').optional(), ...multiAnswerFields }),
  rank: z.strictObject({ ...answerBase, kind: z.literal('rank').optional(), ...rankAnswerFields }),
  estimate: z.strictObject({ ...answerBase, kind: z.literal('estimate').optional(), ...estimateAnswerFields }),
  'grade-source': z.strictObject({
    ...answerBase,
    kind: z.literal('grade-source').optional(),
    ...gradeSourceAnswerFields,
  }),
  extract: z.strictObject({ ...answerBase, kind: z.literal('extract').optional(), ...extractAnswerFields }),
  ach: z.strictObject({ ...answerBase, kind: z.literal('ach').optional(), ...achAnswerFields }),
  write: z.strictObject({ ...answerBase, kind: z.literal('write').optional(), ...writeAnswerFields }),
} as const;

export type ChoiceAnswer = z.infer<(typeof answerByKindSchemas)['choice']>;
export type MultiAnswer = z.infer<(typeof answerByKindSchemas)['multi']>;
export type RankAnswer = z.infer<(typeof answerByKindSchemas)['rank']>;
export type EstimateAnswer = z.infer<(typeof answerByKindSchemas)['estimate']>;
export type GradeSourceAnswer = z.infer<(typeof answerByKindSchemas)['grade-source']>;
export type ExtractAnswer = z.infer<(typeof answerByKindSchemas)['extract']>;
export type AchAnswer = z.infer<(typeof answerByKindSchemas)['ach']>;
export type WriteAnswer = z.infer<(typeof answerByKindSchemas)['write']>;

/**
 * POST /api/runs/:id/answer as the route reads it: `stepId`, `timeMs` and the fields of one kind (optionally
 * `kind`). The server then checks the body against the current step's kind (answerByKindSchemas) and answers
 * 400 for another kind's fields, indexes out of range, duplicates in an order, unknown terms or grades, more
 * values than fields or rows than evidence.
 */
export const answerInputSchema = z.object({
  ...answerBase,
  kind: z.enum(STEP_KINDS, { error: 'Unknown kind of answer.' }).optional(),
  optionIndex: choiceAnswerFields.optionIndex.optional(),
  selected: multiAnswerFields.selected.optional(),
  order: rankAnswerFields.order.optional(),
  term: estimateAnswerFields.term.optional(),
  confidence: estimateAnswerFields.confidence,
  reliability: gradeSourceAnswerFields.reliability.optional(),
  credibility: gradeSourceAnswerFields.credibility.optional(),
  values: extractAnswerFields.values.optional(),
  marks: achAnswerFields.marks.optional(),
  best: achAnswerFields.best.optional(),
  text: writeAnswerFields.text.optional(),
});
/** Any answer: stepId, timeMs and the fields of the step's kind. */
export type AnswerInput = z.infer<typeof answerInputSchema>;

export const hintInputSchema = z.object({ stepId: stepIdField });
export type HintInput = z.infer<typeof hintInputSchema>;

// --- 2. The step as the trainee sees it (no key) ---------------------------------------------------------

export const techniqueRefSchema = z.object({ id: z.string(), name: z.string() });
export type TechniqueRef = z.infer<typeof techniqueRefSchema>;

export const playerIndicatorSchema = z.object({ type: z.string(), value: z.string(), context: z.string().optional() });

export const playerArtifactSchema = z.object({
  kind: z.enum(ARTIFACT_KINDS),
  title: z.string().optional(),
  source: z.string().optional(),
  date: z.string().optional(),
  content: z.string(),
  indicators: z.array(playerIndicatorSchema).optional(),
  /** TLP 2.0 label: draw the standard banner. */
  tlp: z.enum(TLP_LABELS).optional(),
  /** Admiralty grade such as B2: draw a badge (on a grade-source step the graded artifact never has one). */
  admiralty: z.string().optional(),
});
export type PlayerArtifact = z.infer<typeof playerArtifactSchema>;

/** The hint of the current step: whether there is one, what it costs, and its text once opened. */
export const playerHintSchema = z.object({
  available: z.boolean(),
  /** True once the trainee opened it on this visit (then `text` is set). */
  opened: z.boolean(),
  /** The share of the credit an unanswered step loses when the hint is opened (0 to 1). */
  cost: z.number(),
  /** The hint's text; null until opened (never sent before). */
  text: z.string().nullable(),
});
export type PlayerHint = z.infer<typeof playerHintSchema>;

/** What every kind of player step carries. */
const playerStepCommon = {
  id: z.string(),
  /** 1-based place of the step in the scenario's file order. */
  position: z.number().int(),
  title: z.string(),
  description: z.string(),
  artifacts: z.array(playerArtifactSchema),
  /**
   * The hint text once opened, else null. Kept for older clients; `hintState` says whether a hint exists and
   * what it costs.
   */
  hint: z.string().nullable(),
  hintState: playerHintSchema,
  technique: techniqueRefSchema.nullable(),
  skill: z.enum(SKILLS),
  /** false: a briefing or consequence; it earns and counts nothing. */
  scored: z.boolean(),
};

/** An option as shown: its text only (no correct flag, no credit, no next step); the list is in run order. */
const shownOptionSchema = z.object({ text: z.string() });

export const playerChoiceStepSchema = z.object({
  kind: z.literal('choice'),
  ...playerStepCommon,
  options: z.array(shownOptionSchema),
});
export const playerMultiStepSchema = z.object({
  kind: z.literal('multi'),
  ...playerStepCommon,
  options: z.array(shownOptionSchema),
});
/** rank: the items in a per-run shuffle (stable on resume); the file order is the key and is never sent. */
export const playerRankStepSchema = z.object({
  kind: z.literal('rank'),
  ...playerStepCommon,
  options: z.array(shownOptionSchema),
});
export const playerEstimateStepSchema = z.object({
  kind: z.literal('estimate'),
  ...playerStepCommon,
  statement: z.string(),
  askConfidence: z.boolean(),
  /** Always empty: kept so every kind can be drawn by code reading `options`. */
  options: z.array(shownOptionSchema),
});
export const playerGradeSourceStepSchema = z.object({
  kind: z.literal('grade-source'),
  ...playerStepCommon,
  /** The index in `artifacts` of the artifact to grade. */
  artifact: z.number().int(),
  options: z.array(shownOptionSchema),
});
export const playerExtractStepSchema = z.object({
  kind: z.literal('extract'),
  ...playerStepCommon,
  /** The fields to fill, in order: label and type only. */
  fields: z.array(z.object({ label: z.string(), type: z.enum(EXTRACT_FIELD_TYPES) })),
  options: z.array(shownOptionSchema),
});
export const playerAchStepSchema = z.object({
  kind: z.literal('ach'),
  ...playerStepCommon,
  hypotheses: z.array(z.string()),
  /** The evidence rows' text only (no marks). */
  evidence: z.array(z.string()),
  options: z.array(shownOptionSchema),
});
export const playerWriteStepSchema = z.object({
  kind: z.literal('write'),
  ...playerStepCommon,
  prompt: z.string(),
  maxWords: z.number().int(),
  /**
   * The automatic checks that will run. The terms to mention often are the answer (an address, a CVE), so each
   * is sent only as its kind ("an IP address from the case"); the terms come with the result.
   */
  checks: z.object({
    tlp: z.boolean(),
    estimativeLanguage: z.boolean(),
    mustMention: z.array(z.object({ kind: z.enum(MENTION_KINDS), label: z.string() })),
  }),
  /**
   * The rubric's criteria in neutral words (what is assessed, not the answer) and their points; the criteria as
   * written, and the model answer, come with the result.
   */
  rubric: z.array(z.object({ criterion: z.string(), points: z.number().int() })),
  options: z.array(shownOptionSchema),
});

/** A step as a trainee may see it before answering: no key, no next steps, no feedback, no unopened hint. */
export const playerStepSchema = z.discriminatedUnion('kind', [
  playerChoiceStepSchema,
  playerMultiStepSchema,
  playerRankStepSchema,
  playerEstimateStepSchema,
  playerGradeSourceStepSchema,
  playerExtractStepSchema,
  playerAchStepSchema,
  playerWriteStepSchema,
]);
export type PlayerStep = z.infer<typeof playerStepSchema>;
export type PlayerStepOfKind<K extends PlayerStep['kind']> = Extract<PlayerStep, { kind: K }>;

// --- 3. The result of a submission: credit, revealed key, per-element feedback ---------------------------

/** How an element of an answer fared: right, partly right (a second best, an adjacent grade), or wrong. */
export const VERDICTS = ['right', 'partial', 'wrong'] as const;
export const verdictSchema = z.enum(VERDICTS);
export type Verdict = z.infer<typeof verdictSchema>;

const resultCommon = {
  /** The credit earned, 0 to 1, after any hint charge (write: the automatic share until reviewed). */
  credit: z.number(),
  /** The same credit in exact thousandths. */
  creditThousandths: z.number().int(),
  /** The credit before the hint charge. */
  rawCredit: z.number(),
  /** A hint was opened before this first submission and charged. */
  hintCharged: z.boolean(),
  /** false when this was not the visit's first submission (after a Retry): it earns nothing. */
  firstSubmission: z.boolean(),
  /** false for a `scored: false` step. */
  scored: z.boolean(),
  verdict: verdictSchema,
  /** The step's own explanation (its `feedback`), or null. */
  explanation: z.string().nullable(),
};

export const choiceResultSchema = z.object({
  kind: z.literal('choice'),
  ...resultCommon,
  /** Shown index of the option picked, and of the correct one. */
  chosenIndex: z.number().int(),
  correctIndex: z.number().int(),
  chosenText: z.string(),
  correctText: z.string(),
  /** The picked option's own feedback, or null. */
  chosenFeedback: z.string().nullable(),
  /** Every option in shown order with its credit (1 for the correct one) and feedback. */
  options: z.array(
    z.object({ text: z.string(), credit: z.number(), chosen: z.boolean(), feedback: z.string().nullable() }),
  ),
});

export const multiResultSchema = z.object({
  kind: z.literal('multi'),
  ...resultCommon,
  /** Every option in shown order: whether it applies, whether it was picked, and the verdict on that choice. */
  options: z.array(
    z.object({
      text: z.string(),
      correct: z.boolean(),
      selected: z.boolean(),
      /** right: picked and applies, or left and does not; wrong: picked and does not apply, or missed. */
      verdict: verdictSchema,
      feedback: z.string().nullable(),
    }),
  ),
  rightPicked: z.number().int(),
  wrongPicked: z.number().int(),
  rightCount: z.number().int(),
});

export const rankResultSchema = z.object({
  kind: z.literal('rank'),
  ...resultCommon,
  /** The items in the RIGHT order (the key), each with where the trainee put it (0 = top). */
  items: z.array(
    z.object({
      text: z.string(),
      shownIndex: z.number().int(),
      givenPosition: z.number().int(),
      feedback: z.string().nullable(),
    }),
  ),
  /** The shown indexes as the trainee ordered them. */
  order: z.array(z.number().int()),
  discordantPairs: z.number().int(),
  totalPairs: z.number().int(),
});

export const estimateResultSchema = z.object({
  kind: z.literal('estimate'),
  ...resultCommon,
  statement: z.string(),
  term: z.enum(ESTIMATE_TERMS),
  confidence: z.enum(CONFIDENCE_LEVELS).nullable(),
  /** The defensible terms (the key). */
  accept: z.array(z.enum(ESTIMATE_TERMS)),
  /** What happened: the statement turned out true or false. */
  outcome: z.boolean(),
  /** The calibration probability of the term given. */
  probability: z.number(),
  /** How many terms the given one is from the nearest accepted term (0 inside). */
  distance: z.number().int(),
});

const gradeAxisSchema = <T extends z.ZodType>(grade: T) =>
  z.object({ given: grade, key: grade, verdict: verdictSchema });

export const gradeSourceResultSchema = z.object({
  kind: z.literal('grade-source'),
  ...resultCommon,
  artifact: z.number().int(),
  reliability: gradeAxisSchema(z.enum(RELIABILITY_GRADES)),
  credibility: gradeAxisSchema(z.number().int()),
});

export const extractResultSchema = z.object({
  kind: z.literal('extract'),
  ...resultCommon,
  fields: z.array(
    z.object({
      label: z.string(),
      type: z.enum(EXTRACT_FIELD_TYPES),
      given: z.string(),
      /** The value as compared (trimmed, refanged, canonical). */
      normalised: z.string(),
      /** Every accepted value (the key). */
      accepted: z.array(z.string()),
      right: z.boolean(),
    }),
  ),
});

export const achResultSchema = z.object({
  kind: z.literal('ach'),
  ...resultCommon,
  hypotheses: z.array(z.string()),
  /** One row per evidence row: its text and, per hypothesis, the mark given (null when left empty) and the key. */
  rows: z.array(
    z.object({
      text: z.string(),
      cells: z.array(z.object({ given: z.enum(ACH_MARKS).nullable(), key: z.enum(ACH_MARKS), right: z.boolean() })),
    }),
  ),
  cellsRight: z.number().int(),
  cellCount: z.number().int(),
  best: z.object({ given: z.number().int(), key: z.number().int(), right: z.boolean() }),
});

export const writeCheckResultSchema = z.object({
  check: z.enum(WRITE_CHECKS),
  passed: z.boolean(),
  /** Why it failed, in a sentence; null when it passed. */
  reason: z.string().nullable(),
  /** Where (estimative language): each flagged word with its character offset in the text. */
  places: z.array(z.object({ word: z.string(), index: z.number().int() })),
});
export type WriteCheckResult = z.infer<typeof writeCheckResultSchema>;

export const REVIEW_STATUSES = ['pending', 'graded'] as const;
export const reviewStatusSchema = z.enum(REVIEW_STATUSES);
export type ReviewStatus = z.infer<typeof reviewStatusSchema>;

export const writeResultSchema = z.object({
  kind: z.literal('write'),
  ...resultCommon,
  text: z.string(),
  wordCount: z.number().int(),
  maxWords: z.number().int(),
  checks: z.array(writeCheckResultSchema),
  /** The automatic share of the credit: auto_weight x share of checks passed. */
  autoCredit: z.number(),
  autoWeight: z.number(),
  modelAnswer: z.string(),
  rubric: z.array(z.object({ criterion: z.string(), points: z.number().int() })),
  /** The instructor's review: null for an unscored step (never reviewed). */
  review: z
    .object({
      status: reviewStatusSchema,
      /** Points per rubric criterion once graded. */
      points: z.array(z.number().int()).nullable(),
      comment: z.string().nullable(),
      gradedAt: z.string().nullable(),
    })
    .nullable(),
});

/** The revealed key and the feedback element by element, per kind. */
export const stepResultSchema = z.discriminatedUnion('kind', [
  choiceResultSchema,
  multiResultSchema,
  rankResultSchema,
  estimateResultSchema,
  gradeSourceResultSchema,
  extractResultSchema,
  achResultSchema,
  writeResultSchema,
]);
export type StepResult = z.infer<typeof stepResultSchema>;
export type StepResultOfKind<K extends StepResult['kind']> = Extract<StepResult, { kind: K }>;
