import { LineCounter, parseAllDocuments, type YAMLError } from 'yaml';
import type * as z from 'zod';
import { findTechnique } from '../attack';
import {
  ArtifactIndicatorSchema,
  ScenarioArtifactSchema,
  ScenarioOptionObjectSchema,
  ScenarioSchema,
  ScenarioSourceSchema,
  ScenarioStepSchema,
  type ScenarioDefinition,
  type ScenarioStep,
} from './scenario.schema';
import { resolveNextStep } from './step-flow';

/** One thing wrong with a scenario file, at a place an author can find: `steps[2].options[1].next_step`. */
export interface ScenarioProblem {
  path: string;
  message: string;
}

export type ScenarioParseResult = { ok: true; value: unknown } | { ok: false; problems: ScenarioProblem[] };

export interface ScenarioCheckOptions {
  /** builtin: the library's stricter rules (a warning for uploads is an error here). */
  origin?: 'builtin' | 'upload';
}

export type ScenarioCheckResult =
  | { ok: true; scenario: ScenarioDefinition }
  | { ok: false; problems: ScenarioProblem[] };

/** Mirrors SPEC.md section 9's pass threshold (70 percent); the scoring module owns the run-time constant. */
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
  if (problems.length > 0) return { ok: false, problems };

  const document = documents[0];
  if (!document) return { ok: false, problems: [{ path: FILE_PATH, message: 'the file is empty' }] };

  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message =
      error instanceof ReferenceError
        ? 'uses aliases (*name) too many times; write the values out instead'
        : `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, problems: [{ path: FILE_PATH, message }] };
  }

  if (value === null || value === undefined) {
    return { ok: false, problems: [{ path: FILE_PATH, message: 'the file is empty' }] };
  }
  if (!isPlainObject(value)) {
    return {
      ok: false,
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

/** Every problem with a parsed scenario at once: its shape first, then (when the shape is right) its rules. */
export function checkScenario(value: unknown): ScenarioCheckResult {
  const parsed = ScenarioSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) return { ok: false, problems: inFileOrder(problemsFromIssues(parsed.error.issues, [])) };

  const problems = checkScenarioRules(parsed.data);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, scenario: parsed.data };
}

export function checkScenarioText(text: string): ScenarioCheckResult {
  const parsed = parseScenarioText(text);
  return parsed.ok ? checkScenario(parsed.value) : parsed;
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
        problems.push({ path: formatPath([...path, key]), message: describeUnknownField(path, key) });
      }
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
  const indexes = (problem: ScenarioProblem) => [...problem.path.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
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
  };
  const noun = typeof list === 'string' ? (singular[list] ?? 'entry') : 'entry';
  if (count === 1) return noun;
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
  options: Object.keys(ScenarioOptionObjectSchema.shape),
  sources: Object.keys(ScenarioSourceSchema.shape),
  artifacts: Object.keys(ScenarioArtifactSchema.shape),
  indicators: Object.keys(ArtifactIndicatorSchema.shape),
};
const SCENARIO_FIELDS = Object.keys(ScenarioSchema.shape);

function describeUnknownField(objectPath: readonly PropertyKey[], key: string): string {
  const list = objectPath.at(-2);
  const allowed = objectPath.length === 0 ? SCENARIO_FIELDS : typeof list === 'string' ? FIELDS_IN_LIST[list] : undefined;
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

function checkScenarioRules(scenario: ScenarioDefinition): ScenarioProblem[] {
  const { steps } = scenario;
  const problems: ScenarioProblem[] = [];
  let flowIsWellFormed = true;

  const firstIndexById = new Map<string, number>();
  steps.forEach((step, stepIndex) => {
    if (firstIndexById.has(step.id)) {
      problems.push({ path: `steps[${stepIndex}].id`, message: `duplicate step id "${step.id}"` });
      flowIsWellFormed = false;
    } else firstIndexById.set(step.id, stepIndex);
  });

  steps.forEach((step, stepIndex) => {
    if (step.kind !== 'choice') return;
    step.options.forEach((option, optionIndex) => {
      if (typeof option.next_step === 'string' && !firstIndexById.has(option.next_step)) {
        problems.push({
          path: `steps[${stepIndex}].options[${optionIndex}].next_step`,
          message: `no step with id "${option.next_step}"`,
        });
        flowIsWellFormed = false;
      }
    });

    const correctOption = step.options[step.correct_option];
    if (!correctOption) {
      problems.push({
        path: `steps[${stepIndex}].correct_option`,
        message: `${step.correct_option} is out of range (${step.options.length} options)`,
      });
      flowIsWellFormed = false;
    } else if (correctOption.next_step === null) {
      problems.push({
        path: `steps[${stepIndex}].options[${step.correct_option}].next_step`,
        message: 'the correct option cannot be null (Retry), or a trainee who answers correctly stays stuck on this step',
      });
    }

    if (step.mitre_attack !== undefined) problems.push(...checkTechnique(step, stepIndex));
  });

  // Flow checks need every reference resolved; otherwise one typo would also surface as unreachable steps.
  if (flowIsWellFormed) problems.push(...checkFlow(steps));
  return problems;
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

function checkFlow(steps: readonly ScenarioStep[]): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const indexById = new Map(steps.map((step, index) => [step.id, index]));
  const successors: number[][] = steps.map(() => []);
  const predecessors: number[][] = steps.map(() => []);
  const finishes = new Set<number>();

  steps.forEach((step, stepIndex) => {
    (step.kind === 'choice' ? step.options : [{}]).forEach((_option, optionIndex) => {
      const next = resolveNextStep(steps, step.id, optionIndex);
      if (next.kind === 'finish') finishes.add(stepIndex);
      if (next.kind !== 'step') return;
      const nextIndex = indexById.get(next.stepId);
      if (nextIndex === undefined) return;
      successors[stepIndex]?.push(nextIndex);
      predecessors[nextIndex]?.push(stepIndex);
    });
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

  problems.push(...checkCorrectPath(steps));
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

/** Walks the all-correct run: it must finish, and score enough steps to reach the pass mark. */
function checkCorrectPath(steps: readonly ScenarioStep[]): ScenarioProblem[] {
  const first = steps[0];
  if (!first) return [];
  const visited: string[] = [first.id];
  let current: ScenarioStep = first;

  for (;;) {
    const next = resolveNextStep(steps, current.id, current.kind === 'choice' ? current.correct_option : { credit: 1 });
    // A Retry on the correct answer is reported where it is written.
    if (next.kind === 'retry') return [];
    if (next.kind === 'finish') break;
    if (visited.includes(next.stepId)) {
      const stepIndex = steps.indexOf(current);
      return [
        {
          path: `steps[${stepIndex}].correct_option`,
          message: `answering every step correctly goes round in a loop and never finishes (${[...visited, next.stepId].join(' → ')})`,
        },
      ];
    }
    const nextStep = steps.find((step) => step.id === next.stepId);
    if (!nextStep) return [];
    visited.push(nextStep.id);
    current = nextStep;
  }

  const reached = visited.length;
  const total = steps.length;
  if (reached * 100 >= PASS_THRESHOLD_PERCENT * total) return [];
  const needed = Math.ceil((PASS_THRESHOLD_PERCENT * total) / 100);
  return [
    {
      path: 'steps',
      message:
        `answering every step correctly scores only ${reached} of ${total} steps ` +
        `(${Math.floor((reached * 100) / total)} %), below the ${PASS_THRESHOLD_PERCENT} % pass mark; ` +
        `the correct path must pass through at least ${needed} steps`,
    },
  ];
}
