import type { ScenarioStep, StepOfKind } from '../scenarios/scenario.schema';
import { DEFAULT_AUTO_WEIGHT, ESTIMATE_TERM_INFO, type AchMark, type ReliabilityGrade } from '../scenarios/step-kinds';
import type { StepOutcome } from '../scenarios/step-flow';
import {
  achCredit,
  chargeHint,
  choiceCredit,
  countWords,
  estimateCredit,
  extractFieldRight,
  formatCredit,
  gradeSourceCredit,
  multiCredit,
  normaliseIndicator,
  rankCredit,
  termDistance,
  toThousandths,
  writeAutoCredit,
  writeChecks,
} from './credit';
import { judgeAnswer } from './feedback';
import { answerByKindSchemas, type AnswerInput, type StepResult, type Verdict } from './step-answers.schema';

// Grading one submission: is the answer well-formed for the step (validateAnswer), and what does it earn, with
// the revealed key and per-element feedback (gradeStep). Pure: the run engine supplies the run's facts.

/** The step kinds whose options are shown in a per-run shuffle. */
export function hasShownOptions(step: ScenarioStep): step is StepOfKind<'choice' | 'multi' | 'rank'> {
  return step.kind === 'choice' || step.kind === 'multi' || step.kind === 'rank';
}

const ANSWER_FIELD_NAMES: Record<ScenarioStep['kind'], string> = {
  choice: 'optionIndex',
  multi: 'selected',
  rank: 'order',
  estimate: 'term',
  'grade-source': 'reliability and credibility',
  extract: 'values',
  ach: 'marks and best',
  write: 'text',
};

/**
 * Why an answer does not fit the step (a sentence for a 400), or null when it does: the wrong kind of answer,
 * an index out of range, a duplicate in an order, a missing confidence, more or fewer values than fields,
 * a matrix of the wrong size. Fields of the schema (terms, grades, lengths) are checked by answerByKindSchemas.
 */
export function validateAnswer(step: ScenarioStep, input: AnswerInput): string | null {
  if (input.kind !== undefined && input.kind !== step.kind) {
    return `This step is a ${step.kind} step; answer it with ${ANSWER_FIELD_NAMES[step.kind]}.`;
  }
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const parsed = answerByKindSchemas[step.kind].safeParse(given);
  if (!parsed.success) {
    const unknown = parsed.error.issues.find((issue) => issue.code === 'unrecognized_keys');
    if (unknown) return `This step is a ${step.kind} step; answer it with ${ANSWER_FIELD_NAMES[step.kind]}.`;
    return parsed.error.issues[0]?.message ?? 'The answer does not fit this step.';
  }
  const outOfRange = (index: number, count: number) => index < 0 || index >= count;
  switch (step.kind) {
    case 'choice':
      return outOfRange(input.optionIndex ?? -1, step.options.length)
        ? 'That option does not exist on this step.'
        : null;
    case 'multi': {
      const selected = input.selected ?? [];
      if (selected.some((index) => outOfRange(index, step.options.length)))
        return 'That option does not exist on this step.';
      return new Set(selected).size === selected.length ? null : 'Select each option at most once.';
    }
    case 'rank': {
      const order = input.order ?? [];
      if (order.some((index) => outOfRange(index, step.options.length)))
        return 'That option does not exist on this step.';
      if (new Set(order).size !== order.length) return 'Put each item in the order once.';
      return order.length === step.options.length ? null : `Order all ${step.options.length} items.`;
    }
    case 'estimate':
      return step.ask_confidence && input.confidence === undefined
        ? 'Say how confident you are: low, moderate or high.'
        : null;
    case 'grade-source':
      return null;
    case 'extract':
      return (input.values ?? []).length === step.fields.length
        ? null
        : `Give one value for each of the ${step.fields.length} fields.`;
    case 'ach': {
      const marks = input.marks ?? [];
      if (marks.length !== step.evidence.length || marks.some((row) => row.length !== step.hypotheses.length)) {
        return `Mark ${step.evidence.length} rows of evidence against ${step.hypotheses.length} hypotheses.`;
      }
      return outOfRange(input.best ?? -1, step.hypotheses.length) ? 'That hypothesis does not exist.' : null;
    }
    case 'write':
      return null;
  }
}

/** What the run engine knows about the submission. */
export interface GradeContext {
  /**
   * Option kinds: `order[shownIndex]` is the option's index in the file (shownOrder); ach: the same for the
   * hypotheses, so the marks' columns and `best` are read in the shown order.
   */
  order: readonly number[];
  /** The hint was opened on this visit before this submission. */
  hintOpened: boolean;
  /** The step's hint cost (its own, else the scenario's, else the default). */
  hintCost: number;
  /** The visit's first submission (later ones, after a Retry, earn nothing). */
  firstSubmission: boolean;
}

export interface GradedAnswer {
  result: StepResult;
  /** The credit the answer is worth before any hint charge, in thousandths. */
  rawThousandths: number;
  /** The credit it earns (after the hint charge; 0 when unscored or not the first submission), in thousandths. */
  earnedThousandths: number;
  /** What decides the way on (resolveNextStep): the file option index, or the raw credit. */
  outcome: StepOutcome;
  /** choice: the option's index in the file; -1 for other kinds. */
  fileOptionIndex: number;
  /** The answer in words, for the timeline. */
  decision: string;
  /** A one-line headline. */
  feedback: string;
}

const verdictOf = (credit: number): Verdict => (credit >= 1 ? 'right' : credit > 0 ? 'partial' : 'wrong');

const headline = (credit: number) =>
  credit >= 1 ? 'Correct!' : credit > 0 ? `Partly right: ${formatCredit(credit)} credit.` : 'Incorrect.';

const writeHeadline = (checks: readonly { passed: boolean }[], reviewed: boolean) =>
  `Automatic checks: ${checks.filter((check) => check.passed).length} of ${checks.length} passed.${reviewed ? ' An instructor will grade the rest.' : ''}`;

const withExplanation = (text: string, explanation: string | null) => (explanation ? `${text}\n${explanation}` : text);

const shorten = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const mark = (value: AchMark | null | undefined): AchMark | null => value ?? null;

/**
 * Grades a validated answer (validateAnswer returned null). The result speaks in SHOWN indexes; credits are
 * exact thousandths; a step with `scored: false` or a later submission earns 0 but still shows its key.
 */
export function gradeStep(step: ScenarioStep, input: AnswerInput, context: GradeContext): GradedAnswer {
  const scored = step.scored !== false;
  const explanation = step.feedback?.trim() || null;
  const toFile = (shown: number) => context.order[shown] ?? shown;
  const toShown = (file: number) => {
    const shown = context.order.indexOf(file);
    return shown < 0 ? file : shown;
  };

  let raw: number;
  let body: DistributiveOmit<StepResult, keyof CommonResult>;
  let decision: string;
  let fileOptionIndex = -1;
  let feedback: string | null = null;

  switch (step.kind) {
    case 'choice': {
      fileOptionIndex = toFile(input.optionIndex ?? 0);
      raw = choiceCredit(step, fileOptionIndex);
      const chosen = step.options[fileOptionIndex];
      const correct = step.options[step.correct_option];
      decision = chosen?.text ?? '';
      // A second-best option is partly right, never "Incorrect" (docs/scoring.md): its headline says so.
      feedback =
        raw > 0 && raw < 1
          ? withExplanation(
              `${headline(raw)} The best answer was: "${correct?.text ?? ''}"`,
              chosen?.feedback?.trim() || null,
            )
          : judgeAnswer(step, fileOptionIndex).feedback;
      body = {
        kind: 'choice',
        chosenIndex: toShown(fileOptionIndex),
        correctIndex: toShown(step.correct_option),
        chosenText: chosen?.text ?? '',
        correctText: correct?.text ?? '',
        chosenFeedback: chosen?.feedback?.trim() || null,
        options: context.order.map((file) => ({
          text: step.options[file]?.text ?? '',
          credit: choiceCredit(step, file),
          chosen: file === fileOptionIndex,
          feedback: step.options[file]?.feedback?.trim() || null,
        })),
      };
      break;
    }
    case 'multi': {
      const selectedFile = (input.selected ?? []).map(toFile);
      const correct = step.options.map((option) => option.correct === true);
      const tally = multiCredit(correct, selectedFile);
      raw = tally.credit;
      decision =
        selectedFile.length === 0
          ? '(nothing selected)'
          : selectedFile.map((file) => step.options[file]?.text ?? '').join('; ');
      body = {
        kind: 'multi',
        options: context.order.map((file) => {
          const applies = correct[file] === true;
          const selected = selectedFile.includes(file);
          return {
            text: step.options[file]?.text ?? '',
            correct: applies,
            selected,
            verdict: applies === selected ? 'right' : 'wrong',
            feedback: step.options[file]?.feedback?.trim() || null,
          };
        }),
        rightPicked: tally.rightPicked,
        wrongPicked: tally.wrongPicked,
        rightCount: tally.rightCount,
      };
      break;
    }
    case 'rank': {
      const shownOrderGiven = input.order ?? [];
      const fileOrder = shownOrderGiven.map(toFile);
      const tally = rankCredit(fileOrder);
      raw = tally.credit;
      decision = fileOrder.map((file) => step.options[file]?.text ?? '').join(' > ');
      body = {
        kind: 'rank',
        items: step.options.map((option, file) => ({
          text: option.text,
          shownIndex: toShown(file),
          givenPosition: fileOrder.indexOf(file),
          feedback: option.feedback?.trim() || null,
        })),
        order: [...shownOrderGiven],
        discordantPairs: tally.discordantPairs,
        totalPairs: tally.totalPairs,
      };
      break;
    }
    case 'estimate': {
      const term = input.term ?? 'roughly-even-chance';
      raw = estimateCredit(term, step.accept);
      const confidence = step.ask_confidence ? (input.confidence ?? null) : null;
      decision = `${ESTIMATE_TERM_INFO[term].label}${confidence ? ` (${confidence} confidence)` : ''}`;
      body = {
        kind: 'estimate',
        statement: step.statement,
        term,
        confidence,
        accept: [...step.accept],
        outcome: step.outcome,
        probability: ESTIMATE_TERM_INFO[term].probability,
        distance: termDistance(term, step.accept),
      };
      break;
    }
    case 'grade-source': {
      const given = {
        reliability: (input.reliability ?? 'F') as ReliabilityGrade,
        credibility: input.credibility ?? 6,
      };
      const key = { reliability: step.reliability, credibility: step.credibility };
      const tally = gradeSourceCredit(given, key);
      raw = tally.credit;
      decision = `${given.reliability}${given.credibility}`;
      body = {
        kind: 'grade-source',
        artifact: step.artifact,
        reliability: { given: given.reliability, key: key.reliability, verdict: verdictOf(tally.reliability) },
        credibility: { given: given.credibility, key: key.credibility, verdict: verdictOf(tally.credibility) },
      };
      break;
    }
    case 'extract': {
      const values = input.values ?? [];
      const fields = step.fields.map((field, index) => {
        const given = values[index] ?? '';
        return {
          label: field.label,
          type: field.type,
          given,
          normalised: normaliseIndicator(field.type, given),
          accepted: [...field.accept],
          right: extractFieldRight(field.type, given, field.accept),
        };
      });
      raw = fields.filter((field) => field.right).length / fields.length;
      decision = fields.map((field) => `${field.label}: ${field.given.trim() || '(blank)'}`).join('; ');
      body = { kind: 'extract', fields };
      break;
    }
    case 'ach': {
      // The answer speaks in shown columns (the run's order of the hypotheses); the key is kept in file order.
      const columns = step.hypotheses.map((_hypothesis, shown) => toFile(shown));
      const shownBest = input.best ?? -1;
      const given = {
        marks: (input.marks ?? []).map((row) => step.hypotheses.map((_hypothesis, file) => row[toShown(file)] ?? null)),
        best: shownBest < 0 ? -1 : toFile(shownBest),
      };
      const key = { marks: step.evidence.map((row) => row.marks), best: step.best };
      const tally = achCredit(key, given);
      raw = tally.credit;
      decision = `Most likely: ${step.hypotheses[given.best] ?? ''}`;
      body = {
        kind: 'ach',
        hypotheses: columns.map((file) => step.hypotheses[file] ?? ''),
        rows: step.evidence.map((row, rowIndex) => ({
          text: row.text,
          cells: columns.map((file) => {
            const keyMark = row.marks[file] ?? 'N';
            const givenMark = mark(given.marks[rowIndex]?.[file]);
            return { given: givenMark, key: keyMark, right: givenMark === keyMark };
          }),
        })),
        cellsRight: tally.cellsRight,
        cellCount: tally.cellCount,
        best: { given: shownBest, key: toShown(step.best), right: given.best === step.best },
      };
      break;
    }
    case 'write': {
      const text = input.text ?? '';
      const checks = writeChecks(step, text);
      const autoWeight = step.auto_weight ?? DEFAULT_AUTO_WEIGHT;
      raw = writeAutoCredit(checks, autoWeight);
      decision = shorten(text.trim() || '(nothing written)');
      body = {
        kind: 'write',
        text,
        wordCount: countWords(text),
        maxWords: step.max_words,
        checks,
        autoCredit: raw,
        autoWeight,
        modelAnswer: step.model_answer,
        rubric: step.rubric.map((criterion) => ({ criterion: criterion.criterion, points: criterion.points })),
        review:
          scored && context.firstSubmission ? { status: 'pending', points: null, comment: null, gradedAt: null } : null,
      };
      break;
    }
  }

  const rawThousandths = toThousandths(raw);
  const hintCharged = context.hintOpened && context.firstSubmission && scored && context.hintCost > 0;
  const charged = hintCharged ? chargeHint(rawThousandths, context.hintCost) : rawThousandths;
  const earnedThousandths = scored && context.firstSubmission ? charged : 0;
  const common: CommonResult = {
    credit: earnedThousandths / 1000,
    creditThousandths: earnedThousandths,
    rawCredit: rawThousandths / 1000,
    hintCharged,
    firstSubmission: context.firstSubmission,
    scored,
    verdict: verdictOf(rawThousandths / 1000),
    explanation,
  };
  if (body.kind === 'write') body = { ...body, autoCredit: charged / 1000 };
  return {
    result: { ...common, ...body } as StepResult,
    rawThousandths,
    earnedThousandths,
    outcome: step.kind === 'choice' ? { optionIndex: fileOptionIndex } : { credit: rawThousandths / 1000 },
    fileOptionIndex,
    decision,
    feedback:
      feedback ??
      withExplanation(
        body.kind === 'write' ? writeHeadline(body.checks, body.review !== null) : headline(rawThousandths / 1000),
        explanation,
      ),
  };
}

type CommonResult = Pick<
  StepResult,
  | 'credit'
  | 'creditThousandths'
  | 'rawCredit'
  | 'hintCharged'
  | 'firstSubmission'
  | 'scored'
  | 'verdict'
  | 'explanation'
>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The key of a step in words (the report's "correct answer"). */
export function keyInWords(step: ScenarioStep): string {
  switch (step.kind) {
    case 'choice':
      return step.options[step.correct_option]?.text ?? '';
    case 'multi':
      return step.options
        .filter((option) => option.correct)
        .map((option) => option.text)
        .join('; ');
    case 'rank':
      return step.options.map((option) => option.text).join(' > ');
    case 'estimate':
      return `${step.accept.map((term) => ESTIMATE_TERM_INFO[term].label).join(' or ')} (it turned out ${step.outcome ? 'true' : 'false'})`;
    case 'grade-source':
      return `${step.reliability}${step.credibility}`;
    case 'extract':
      return step.fields.map((field) => `${field.label}: ${field.accept[0] ?? ''}`).join('; ');
    case 'ach':
      return `Most likely: ${step.hypotheses[step.best] ?? ''}`;
    case 'write':
      return shorten(step.model_answer);
  }
}
