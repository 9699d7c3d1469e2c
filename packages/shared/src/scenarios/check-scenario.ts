import { LineCounter, parseAllDocuments, type YAMLError } from 'yaml';
import type * as z from 'zod';
import { findTechnique } from '../attack';
import {
  AchEvidenceSchema,
  ArtifactIndicatorSchema,
  ExtractFieldSchema,
  MultiOptionObjectSchema,
  RubricCriterionSchema,
  ScenarioArtifactSchema,
  ScenarioOptionObjectSchema,
  ScenarioSchema,
  ScenarioSourceSchema,
  ScenarioStepSchema,
  type ScenarioDefinition,
  type ScenarioStep,
  type StepOfKind,
} from './scenario.schema';
import { checkAchKey } from './ach-rules';
import { checkGlyphs } from './glyph-rules';
import { resolveNextStep, type NextStep, type StepOutcome } from './step-flow';
import { STEP_KINDS } from './step-kinds';
import { controlCharacterProblems } from './control-characters';

/** One thing wrong with a scenario file, at a place an author can find: `steps[2].options[1].next_step`. */
export interface ScenarioProblem {
  path: string;
  message: string;
}

export type ScenarioParseResult =
  { ok: true; value: unknown } | { ok: false; problems: ScenarioProblem[]; warnings: ScenarioProblem[] };

export interface ScenarioCheckOptions {
  /** builtin: the library's stricter rules (a warning for uploads is an error here). */
  origin?: 'builtin' | 'upload';
}

/**
 * The outcome of a check: the scenario when nothing is wrong, else every problem. `warnings` are listed either
 * way and never refuse a file (an upload's content advice; for the built-in library the same findings are errors).
 */
export type ScenarioCheckResult =
  | { ok: true; scenario: ScenarioDefinition; warnings: ScenarioProblem[] }
  | { ok: false; problems: ScenarioProblem[]; warnings: ScenarioProblem[] };

/** The pass mark (70 percent) as the checker applies it; the scoring module owns the run-time constant. */
const PASS_THRESHOLD_PERCENT = 70;

// Small: a real scenario needs few aliases, and a "billion laughs" file then fails at once.
const MAX_ALIAS_COUNT = 50;

const FILE_PATH = '(file)';

export function formatProblem(problem: ScenarioProblem): string {
  return `${problem.path}: ${problem.message}`;
}

/** `steps[2].options[1].next_step`; the empty path is the file itself. */
export function formatPath(path: readonly PropertyKey[]): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) {
      formatted += formatted === '' ? segment : `.${segment}`;
    } else formatted += `[${JSON.stringify(String(segment))}]`;
  }
  return formatted === '' ? FILE_PATH : formatted;
}

/**
 * Reads a YAML (or JSON) scenario file safely: the core schema only (no custom or language tags),
 * unique keys, few aliases, exactly one document holding a mapping.
 */
export function parseScenarioText(text: string): ScenarioParseResult {
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, {
    version: '1.2',
    schema: 'core',
    customTags: [],
    resolveKnownTags: false,
    merge: false,
    uniqueKeys: true,
    prettyErrors: false,
    lineCounter,
  });

  const problems: ScenarioProblem[] = [];
  for (const document of documents) {
    for (const error of [...document.errors, ...document.warnings]) {
      problems.push(yamlProblem(error, text, lineCounter));
    }
  }
  if (documents.length > 1) {
    problems.push({
      path: FILE_PATH,
      message: `holds ${documents.length} YAML documents (separated by ---); put exactly one scenario in each file`,
    });
  }
  if (problems.length > 0) return { ok: false, problems, warnings: [] };

  const document = documents[0];
  if (!document) return { ok: false, problems: [{ path: FILE_PATH, message: 'the file is empty' }], warnings: [] };

  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message =
      error instanceof ReferenceError
        ? 'uses aliases (*name) too many times; write the values out instead'
        : `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, problems: [{ path: FILE_PATH, message }], warnings: [] };
  }

  if (value === null || value === undefined) {
    return { ok: false, problems: [{ path: FILE_PATH, message: 'the file is empty' }], warnings: [] };
  }
  if (!isPlainObject(value)) {
    return {
      ok: false,
      warnings: [],
      problems: [
        {
          path: FILE_PATH,
          message: `must hold one scenario as a mapping of fields (id, name, type, ..., steps), not ${describeValue(value)}`,
        },
      ],
    };
  }
  return { ok: true, value };
}

/**
 * Every problem with a parsed scenario in one pass: its shape, and the rules of every step whose own shape is
 * right (references, keys, artifacts) even when another part of the file is wrong; the flow rules (reachability,
 * the best path, the pass mark, the longest-option rule) once the whole file has the right shape.
 */
export function checkScenario(value: unknown, options: ScenarioCheckOptions = {}): ScenarioCheckResult {
  const parsed = ScenarioSchema.safeParse(value, { reportInput: true });
  const warnings: ScenarioProblem[] = [];
  if (!parsed.success) {
    const problems = [...problemsFromIssues(parsed.error.issues, []), ...checkStepsOfBrokenFile(value)];
    return { ok: false, problems: inFileOrder(dedupe(problems)), warnings };
  }

  const findings = checkScenarioRules(parsed.data);
  const problems = [...findings.problems, ...controlCharacterProblems(value)];
  if (options.origin === 'builtin') problems.push(...findings.advice);
  else warnings.push(...findings.advice);
  return problems.length > 0
    ? { ok: false, problems: inFileOrder(problems), warnings }
    : { ok: true, scenario: parsed.data, warnings };
}

export function checkScenarioText(text: string, options: ScenarioCheckOptions = {}): ScenarioCheckResult {
  const parsed = parseScenarioText(text);
  return parsed.ok ? checkScenario(parsed.value, options) : parsed;
}

function dedupe(problems: ScenarioProblem[]): ScenarioProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = formatProblem(problem);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The id an upload without one gets: a slug of its name, `[a-z0-9-]`, 3 to 64 characters. */
export function deriveScenarioId(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  if (slug === '') return 'scenario';
  return slug.length < 3 ? `${slug}-scenario` : slug;
}

// --- YAML problems ---------------------------------------------------------------------------------

function yamlProblem(error: YAMLError, text: string, lineCounter: LineCounter): ScenarioProblem {
  const { line, col } = lineCounter.linePos(error.pos[0]);
  return { path: `line ${line}, column ${col}`, message: describeYamlError(error, text) };
}

function describeYamlError(error: YAMLError, text: string): string {
  switch (error.code) {
    case 'DUPLICATE_KEY': {
      const key = /^\s*("[^"\n]*"|'[^'\n]*'|[^:\n]+?)\s*:/.exec(text.slice(error.pos[0]))?.[1];
      const name = key?.replace(/^["']|["']$/g, '');
      return name
        ? `the field "${name}" appears twice in the same mapping; keep one`
        : 'the same field appears twice in one mapping; keep one';
    }
    case 'TAG_RESOLVE_FAILED': {
      const tag = error.message.replace(/^Unresolved tag: /, '').replace(/^tag:yaml\.org,2002:/, '!!');
      return `the tag ${tag} is not allowed; a scenario file holds only plain text, numbers, true/false, lists and mappings`;
    }
    default:
      // The parser runs out of stack on lists or mappings nested thousands deep (a hostile file).
      return /maximum call stack/i.test(error.message)
        ? 'nests lists or mappings too deeply to be read; a scenario needs only a few levels'
        : error.message;
  }
}

// --- Schema problems -------------------------------------------------------------------------------

function problemsFromIssues(issues: readonly z.core.$ZodIssue[], basePath: readonly PropertyKey[]): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  for (const issue of issues) {
    const path = [...basePath, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push({ path: formatPath([...path, key]), message: describeUnknownField(path, key, issue.input) });
      }
    } else if (issue.code === 'invalid_union' && (issue as { note?: string }).note === 'No matching discriminator') {
      problems.push({
        path: formatPath(path),
        message: `must be one of ${STEP_KINDS.join(', ')} (absent means choice); found ${describeValue(valueAt(issue))}`,
      });
    } else if (issue.code === 'invalid_union') {
      // A plain-string option that is too long fails both branches; report the branch the author meant.
      const meant = issue.errors.filter((branch) => !branch.every(isRootTypeMismatch));
      const [only] = meant;
      if (meant.length === 1 && only) problems.push(...problemsFromIssues(only, path));
      else problems.push({ path: formatPath(path), message: describeUnionMismatch(issue) });
    } else {
      problems.push({ path: formatPath(path), message: describeIssue(issue, path) });
    }
  }
  return problems;
}

/** Zod lists unknown fields after the rest; an author reads more easily step by step. */
function inFileOrder(problems: ScenarioProblem[]): ScenarioProblem[] {
  const indexes = (problem: ScenarioProblem) =>
    [...problem.path.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
  return problems
    .map((problem) => ({ problem, indexes: indexes(problem) }))
    .sort((a, b) => compareIndexes(a.indexes, b.indexes))
    .map(({ problem }) => problem);
}

function compareIndexes(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The input at a discriminator issue's place (zod reports the whole object). */
function valueAt(issue: z.core.$ZodIssueInvalidUnion): unknown {
  const input = issue.input;
  return isPlainObject(input) && 'kind' in input ? input.kind : input;
}

function isRootTypeMismatch(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'invalid_type' && issue.path.length === 0;
}

function describeUnionMismatch(issue: z.core.$ZodIssueInvalidUnion): string {
  const expected = issue.errors
    .flat()
    .filter(isRootTypeMismatch)
    .map((branchIssue) => (branchIssue.code === 'invalid_type' ? describeExpected(branchIssue.expected) : ''))
    .filter((description) => description !== '');
  return expected.length > 0
    ? `expected ${[...new Set(expected)].join(' or ')}, found ${describeValue(issue.input)}`
    : issue.message;
}

function describeIssue(issue: z.core.$ZodIssue, path: readonly PropertyKey[]): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `expected ${describeExpected(issue.expected)}, found ${describeValue(issue.input)}`;
    case 'too_small':
      return describeTooSmall(issue, path);
    case 'too_big':
      return describeTooBig(issue, path);
    case 'invalid_value':
      return `must be one of ${issue.values.map((allowed) => String(allowed)).join(', ')}; found ${describeValue(issue.input)}`;
    case 'invalid_format':
      return typeof issue.input === 'string' ? `${issue.message} (found "${issue.input}")` : issue.message;
    default:
      return issue.message;
  }
}

function describeTooSmall(issue: z.core.$ZodIssueTooSmall, path: readonly PropertyKey[]): string {
  const minimum = Number(issue.minimum);
  if (issue.origin === 'string') {
    return minimum <= 1 ? 'must not be empty' : `must be at least ${minimum} characters`;
  }
  if (issue.origin === 'array') {
    const found = Array.isArray(issue.input) ? issue.input.length : 0;
    return `needs at least ${minimum} ${itemNoun(path, minimum)}, found ${found}`;
  }
  return `must be at least ${minimum}, found ${describeValue(issue.input)}`;
}

function describeTooBig(issue: z.core.$ZodIssueTooBig, path: readonly PropertyKey[]): string {
  const maximum = Number(issue.maximum);
  if (issue.origin === 'string') {
    const length = typeof issue.input === 'string' ? issue.input.length : 0;
    return `is too long: ${length} characters, at most ${maximum} allowed`;
  }
  if (issue.origin === 'array') {
    const found = Array.isArray(issue.input) ? issue.input.length : 0;
    return `has ${found} ${itemNoun(path, found)}, at most ${maximum} allowed`;
  }
  return `must be at most ${maximum}, found ${describeValue(issue.input)}`;
}

function itemNoun(path: readonly PropertyKey[], count: number): string {
  const list = path.at(-1);
  const singular: Record<string, string> = {
    steps: 'step',
    options: 'option',
    sources: 'source',
    artifacts: 'artifact',
    indicators: 'indicator',
    fields: 'field',
    evidence: 'evidence row',
    hypotheses: 'hypothesis',
    rubric: 'criterion',
    accept: 'term',
    marks: 'mark',
  };
  const noun = typeof list === 'string' ? (singular[list] ?? 'entry') : 'entry';
  if (count === 1) return noun;
  if (noun === 'hypothesis') return 'hypotheses';
  if (noun === 'criterion') return 'criteria';
  return noun === 'entry' ? 'entries' : `${noun}s`;
}

function describeExpected(expected: string): string {
  const names: Record<string, string> = {
    string: 'text',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    array: 'a list',
    object: 'a mapping of fields',
  };
  return names[expected] ?? expected;
}

function describeValue(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `text ("${value.length > 40 ? `${value.slice(0, 40)}...` : value}")`;
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `${value}`;
    case 'object':
      return 'a mapping of fields';
    default:
      return typeof value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Field names by the list that holds the object, so an unknown field can be matched to the one meant.
const FIELDS_IN_LIST: Record<string, readonly string[]> = {
  steps: [...new Set(ScenarioStepSchema.options.flatMap((kind) => Object.keys(kind.shape)))],
  options: [
    ...new Set([ScenarioOptionObjectSchema, MultiOptionObjectSchema].flatMap((schema) => Object.keys(schema.shape))),
  ],
  fields: Object.keys(ExtractFieldSchema.shape),
  evidence: Object.keys(AchEvidenceSchema.shape),
  rubric: Object.keys(RubricCriterionSchema.shape),
  sources: Object.keys(ScenarioSourceSchema.shape),
  artifacts: Object.keys(ScenarioArtifactSchema.shape),
  indicators: Object.keys(ArtifactIndicatorSchema.shape),
};
const SCENARIO_FIELDS = Object.keys(ScenarioSchema.shape);

/** The kinds whose steps have each field (a field of another kind is explained, not just called unknown). */
const STEP_KINDS_BY_FIELD = new Map<string, string[]>();
for (const schema of ScenarioStepSchema.options) {
  const kind = String(schema.shape.kind.def.type === 'default' ? 'choice' : (schema.shape.kind as z.ZodLiteral).value);
  for (const field of Object.keys(schema.shape))
    STEP_KINDS_BY_FIELD.set(field, [...(STEP_KINDS_BY_FIELD.get(field) ?? []), kind]);
}

function describeUnknownField(objectPath: readonly PropertyKey[], key: string, input?: unknown): string {
  const list = objectPath.at(-2);
  const kinds = list === 'steps' ? STEP_KINDS_BY_FIELD.get(key) : undefined;
  if (kinds) {
    const kind = isPlainObject(input) && typeof input.kind === 'string' ? input.kind : 'choice';
    return `not a field of ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} step (only ${kinds.join(', ')} steps have it)`;
  }
  const allowed =
    objectPath.length === 0 ? SCENARIO_FIELDS : typeof list === 'string' ? FIELDS_IN_LIST[list] : undefined;
  if (!allowed) return 'unknown field';
  const meant = closestField(key, allowed);
  return meant ? `unknown field; did you mean "${meant}"?` : `unknown field; allowed here: ${allowed.join(', ')}`;
}

function closestField(key: string, allowed: readonly string[]): string | undefined {
  const normalise = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '');
  const exact = allowed.find((field) => normalise(field) === normalise(key));
  if (exact) return exact;
  let best: { field: string; distance: number } | undefined;
  for (const field of allowed) {
    const distance = editDistance(normalise(key), normalise(field));
    if (distance <= 2 && (!best || distance < best.distance)) best = { field, distance };
  }
  return best?.field;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

// --- Scenario rules --------------------------------------------------------------------------------

/** The share of choice steps whose correct option may be the strictly longest one (above it: refused or warned). */
export const LONGEST_OPTION_LIMIT = 0.4;

/** What a step is worth on the best path: its best credit, and whether it counts. */
interface BestStep {
  stepIndex: number;
  credit: number;
  scored: boolean;
}

/** The best path: the highest-credit answer at every step, from the first step to the finish. */
export interface BestPath {
  /** Step ids in the order played. */
  stepIds: string[];
  /** Scored steps on it (what an ended run's percent divides by at least). */
  scoredSteps: number;
  /** The sum of best credits on it, in thousandths. */
  creditThousandths: number;
  /** False when the best answers go round in a loop or into a Retry. */
  finishes: boolean;
  /** The step a looping best path comes back to; null otherwise. */
  loopsBackTo: string | null;
}

const isStepObject = (value: unknown): value is Record<string, unknown> => isPlainObject(value);

/** The rules that can run on a file whose shape is wrong somewhere: step by step, against the ids present. */
function checkStepsOfBrokenFile(value: unknown): ScenarioProblem[] {
  if (!isPlainObject(value) || !Array.isArray(value.steps)) return [];
  const rawSteps = value.steps as unknown[];
  const ids = new Set(
    rawSteps
      .filter(isStepObject)
      .map((step) => step.id)
      .filter((id): id is string => typeof id === 'string'),
  );
  const problems: ScenarioProblem[] = [];
  rawSteps.forEach((raw, stepIndex) => {
    if (!isStepObject(raw)) return;
    problems.push(...checkReferences(raw, stepIndex, ids));
    const parsed = ScenarioStepSchema.safeParse(raw);
    if (parsed.success) problems.push(...checkStepKeys(parsed.data, stepIndex));
  });
  problems.push(
    ...checkDuplicateIds(rawSteps.map((raw) => (isStepObject(raw) && typeof raw.id === 'string' ? raw.id : undefined))),
  );
  return problems;
}

function checkDuplicateIds(ids: readonly (string | undefined)[]): ScenarioProblem[] {
  const seen = new Set<string>();
  const problems: ScenarioProblem[] = [];
  ids.forEach((id, stepIndex) => {
    if (id === undefined) return;
    if (seen.has(id)) problems.push({ path: `steps[${stepIndex}].id`, message: `duplicate step id "${id}"` });
    seen.add(id);
  });
  return problems;
}

/** Every `next_step` (options, the step, `below`) that names no step. Works on the raw step too. */
function checkReferences(
  step: Record<string, unknown>,
  stepIndex: number,
  ids: ReadonlySet<string>,
): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const dangling = (target: unknown, path: string) => {
    if (typeof target === 'string' && !ids.has(target)) problems.push({ path, message: `no step with id "${target}"` });
  };
  if (Array.isArray(step.options)) {
    step.options.forEach((option, optionIndex) => {
      if (isPlainObject(option)) dangling(option.next_step, `steps[${stepIndex}].options[${optionIndex}].next_step`);
    });
  }
  dangling(step.next_step, `steps[${stepIndex}].next_step`);
  if (isPlainObject(step.below)) dangling(step.below.next_step, `steps[${stepIndex}].below.next_step`);
  return problems;
}

/** The keys of one step of the right shape: indexes in range, terms, grades, matrix sizes, the artifacts. */
function checkStepKeys(step: ScenarioStep, stepIndex: number): ScenarioProblem[] {
  const at = (field: string) => `steps[${stepIndex}]${field}`;
  const problems: ScenarioProblem[] = [];
  const add = (field: string, message: string) => problems.push({ path: at(field), message });

  (step.artifacts ?? []).forEach((artifact, artifactIndex) => {
    if (artifact.kind !== 'stix') return;
    try {
      const parsed: unknown = JSON.parse(artifact.content);
      if (!isPlainObject(parsed) || typeof parsed.type !== 'string') {
        add(
          `.artifacts[${artifactIndex}].content`,
          'a stix artifact holds one STIX 2.1 object or bundle (JSON with a "type")',
        );
      }
    } catch {
      add(`.artifacts[${artifactIndex}].content`, 'a stix artifact holds STIX 2.1 JSON, and this is not valid JSON');
    }
  });

  switch (step.kind) {
    case 'choice': {
      const correct = step.options[step.correct_option];
      if (!correct) {
        add('.correct_option', `${step.correct_option} is out of range (${step.options.length} options)`);
      } else if (correct.next_step === null) {
        add(
          `.options[${step.correct_option}].next_step`,
          'the correct option cannot be null (Retry), or a trainee who answers correctly stays stuck on this step',
        );
      }
      step.options.forEach((option, optionIndex) => {
        if (option.credit === undefined) return;
        if (optionIndex === step.correct_option)
          add(
            `.options[${optionIndex}].credit`,
            'the correct option always earns 1; give credit only to a second-best option',
          );
        else if (option.credit >= 1)
          add(`.options[${optionIndex}].credit`, `must be below the correct option's 1, found ${option.credit}`);
      });
      break;
    }
    case 'multi':
      if (!step.options.some((option) => option.correct)) add('.options', 'mark at least one option `correct: true`');
      break;
    case 'estimate':
      if (new Set(step.accept).size !== step.accept.length) add('.accept', 'lists a term twice');
      break;
    case 'grade-source': {
      const artifacts = step.artifacts ?? [];
      const graded = artifacts[step.artifact];
      if (!graded) add('.artifact', `${step.artifact} is out of range (${artifacts.length} artifacts)`);
      else if (graded.admiralty !== undefined)
        add(
          `.artifacts[${step.artifact}].admiralty`,
          'the graded artifact cannot show its grade: that gives the answer away',
        );
      break;
    }
    case 'ach':
      step.evidence.forEach((row, rowIndex) => {
        if (row.marks.length !== step.hypotheses.length) {
          add(
            `.evidence[${rowIndex}].marks`,
            `needs one mark per hypothesis (${step.hypotheses.length}), found ${row.marks.length}`,
          );
        }
      });
      if (step.best >= step.hypotheses.length)
        add('.best', `${step.best} is out of range (${step.hypotheses.length} hypotheses)`);
      break;
    case 'write':
      if (step.checks?.must_mention?.length === 0)
        add('.checks.must_mention', 'is empty; list what must be mentioned or leave it out');
      break;
    case 'rank':
    case 'extract':
      break;
  }
  if (step.kind !== 'choice' && step.below && step.below.credit <= 0) {
    add('.below.credit', 'no submission is under 0; give a credit above 0');
  }
  return problems;
}

function checkScenarioRules(scenario: ScenarioDefinition): { problems: ScenarioProblem[]; advice: ScenarioProblem[] } {
  const { steps } = scenario;
  const ids = new Set(steps.map((step) => step.id));
  const problems: ScenarioProblem[] = [...checkDuplicateIds(steps.map((step) => step.id))];
  steps.forEach((step, stepIndex) => {
    problems.push(...checkReferences(step as unknown as Record<string, unknown>, stepIndex, ids));
    problems.push(...checkStepKeys(step, stepIndex));
    if (step.mitre_attack !== undefined) problems.push(...checkTechnique(step, stepIndex));
  });

  // Flow checks need every reference resolved; otherwise one typo would also surface as unreachable steps.
  const flowIsWellFormed = problems.every((problem) => !/\.id$|next_step$|correct_option$/.test(problem.path));
  if (flowIsWellFormed) problems.push(...checkFlow(steps));
  return { problems, advice: [...checkLongestOption(steps), ...steps.flatMap(checkAchKey), ...checkGlyphs(scenario)] };
}

function checkTechnique(step: ScenarioStep, stepIndex: number): ScenarioProblem[] {
  const id = step.mitre_attack ?? '';
  const path = `steps[${stepIndex}].mitre_attack`;
  const technique = findTechnique(id);
  if (!technique) return [{ path, message: `"${id}" is not an active ATT&CK Enterprise technique` }];
  // Scores count techniques by id, so "t1566" and "T1566" must not become two techniques.
  if (technique.id !== id) return [{ path, message: `write the technique id as "${technique.id}", not "${id}"` }];
  return [];
}

/**
 * The longest-option rule: when the correct option is the strictly longest in more than 40 % of the choice
 * steps, a trainee who always clicks the longest option does well without reading. Advice (an error for the
 * built-in library, a warning for uploads).
 */
function checkLongestOption(steps: readonly ScenarioStep[]): ScenarioProblem[] {
  const choices = steps.filter((step): step is StepOfKind<'choice'> => step.kind === 'choice');
  if (choices.length === 0) return [];
  const longest = choices.filter((step) => correctIsStrictlyLongest(step));
  if (longest.length <= LONGEST_OPTION_LIMIT * choices.length) return [];
  return [
    {
      path: 'steps',
      message:
        `the correct option is the longest one in ${longest.length} of ${choices.length} choice steps ` +
        `(${Math.round((longest.length * 100) / choices.length)} %, at most ${LONGEST_OPTION_LIMIT * 100} % allowed), so ` +
        `always picking the longest option scores well; make a wrong option the longest in some of: ` +
        longest.map((step) => step.id).join(', '),
    },
  ];
}

/** The correct option is longer than every other option of the step. */
export function correctIsStrictlyLongest(step: {
  options: ReadonlyArray<{ text: string }>;
  correct_option: number;
}): boolean {
  const correct = step.options[step.correct_option]?.text.length ?? 0;
  return step.options.every((option, index) => index === step.correct_option || option.text.length < correct);
}

/** Each step's possible ways on (for reachability), by kind. */
function outcomesOf(step: ScenarioStep): StepOutcome[] {
  if (step.kind === 'choice') return step.options.map((_option, optionIndex) => optionIndex);
  return step.below ? [{ credit: 1 }, { credit: 0 }] : [{ credit: 1 }];
}

function checkFlow(steps: readonly ScenarioStep[]): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const indexById = new Map(steps.map((step, index) => [step.id, index]));
  const successors: number[][] = steps.map(() => []);
  const predecessors: number[][] = steps.map(() => []);
  const finishes = new Set<number>();

  steps.forEach((step, stepIndex) => {
    for (const outcome of outcomesOf(step)) {
      const next = resolveNextStep(steps, step.id, outcome);
      if (next.kind === 'finish') finishes.add(stepIndex);
      if (next.kind !== 'step') continue;
      const nextIndex = indexById.get(next.stepId);
      if (nextIndex === undefined) continue;
      successors[stepIndex]?.push(nextIndex);
      predecessors[nextIndex]?.push(stepIndex);
    }
  });

  const reachable = visitFrom([0], successors);
  const canFinish = visitFrom([...finishes], predecessors);

  steps.forEach((step, stepIndex) => {
    if (!reachable.has(stepIndex)) {
      problems.push({
        path: `steps[${stepIndex}]`,
        message: `step "${step.id}" can never be reached from the first step`,
      });
    } else if (!canFinish.has(stepIndex)) {
      problems.push({
        path: `steps[${stepIndex}]`,
        message: `a trainee at step "${step.id}" can never finish: every choice from here loops back or retries`,
      });
    }
  });

  problems.push(...checkBestPath(steps));
  return problems;
}

/** Every index reachable from `starts` along `edges` (breadth first). */
function visitFrom(starts: readonly number[], edges: readonly (readonly number[])[]): Set<number> {
  const seen = new Set(starts);
  const queue = [...starts];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const neighbour of edges[next] ?? []) {
      if (!seen.has(neighbour)) {
        seen.add(neighbour);
        queue.push(neighbour);
      }
    }
  }
  return seen;
}

/** The best answer of a step: its credit and the outcome that leads on. */
function bestAnswer(step: ScenarioStep): { credit: number; outcome: StepOutcome } {
  if (step.kind === 'choice') return { credit: 1, outcome: step.correct_option };
  return { credit: 1, outcome: { credit: 1 } };
}

/**
 * Walks the best answers from the first step (or from `fromStepId`). The run engine records the path's scored
 * steps when a run starts (an ended run's percent divides by at least that many), and tells the player how many
 * steps are left on it from the current one.
 */
export function bestPath(steps: readonly ScenarioStep[], fromStepId?: string): BestPath {
  const visited: BestStep[] = [];
  const seen = new Set<string>();
  let current = fromStepId === undefined ? steps[0] : steps.find((step) => step.id === fromStepId);
  while (current) {
    if (seen.has(current.id)) return summarise(steps, visited, false, current.id);
    seen.add(current.id);
    const best = bestAnswer(current);
    visited.push({ stepIndex: steps.indexOf(current), credit: best.credit, scored: current.scored !== false });
    let next: NextStep;
    try {
      next = resolveNextStep(steps, current.id, best.outcome);
    } catch {
      return summarise(steps, visited, false);
    }
    if (next.kind === 'retry') return summarise(steps, visited, false);
    if (next.kind === 'finish') return summarise(steps, visited, true);
    const nextId = next.stepId;
    current = steps.find((step) => step.id === nextId);
  }
  return summarise(steps, visited, false);
}

function summarise(
  steps: readonly ScenarioStep[],
  visited: readonly BestStep[],
  finishes: boolean,
  loopsBackTo: string | null = null,
): BestPath {
  const scored = visited.filter((step) => step.scored);
  return {
    stepIds: visited.map((step) => steps[step.stepIndex]?.id ?? ''),
    scoredSteps: scored.length,
    creditThousandths: scored.reduce((sum, step) => sum + Math.round(step.credit * 1000), 0),
    finishes,
    loopsBackTo,
  };
}

/** The best path must finish and reach the pass mark over the steps it plays. */
function checkBestPath(steps: readonly ScenarioStep[]): ScenarioProblem[] {
  const path = bestPath(steps);
  if (!path.finishes) {
    const last = steps.findIndex((step) => step.id === path.stepIds.at(-1));
    const lastStep = steps[last];
    // A Retry on the correct answer is reported where it is written.
    if (lastStep?.kind === 'choice' && lastStep.options[lastStep.correct_option]?.next_step === null) return [];
    return [
      {
        path: lastStep?.kind === 'choice' ? `steps[${last}].correct_option` : `steps[${last}]`,
        message: `answering every step correctly goes round in a loop and never finishes (${[...path.stepIds, path.loopsBackTo ?? '…'].join(' → ')})`,
      },
    ];
  }
  if (path.scoredSteps === 0) {
    return [
      {
        path: 'steps',
        message: 'the best path has no scored step (every step on it says `scored: false`), so a run cannot be scored',
      },
    ];
  }
  const percent = path.creditThousandths / (10 * path.scoredSteps);
  if (Math.round(percent) >= PASS_THRESHOLD_PERCENT) return [];
  return [
    {
      path: 'steps',
      message: `the best answers score only ${Math.round(percent)} %, below the ${PASS_THRESHOLD_PERCENT} % pass mark`,
    },
  ];
}
