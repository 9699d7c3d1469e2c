import {
  STEP_KINDS,
  type AchEvidence,
  type BelowBranch,
  type EstimateTerm,
  type ExtractField,
  type ReliabilityGrade,
  type RubricCriterion,
  type ScenarioArtifact,
  type ScenarioSource,
  type Skill,
  type StepKind,
  type WriteChecks,
} from '@tradecraft/shared';

// The editor's working copy of a scenario. A draft may be unfinished (empty texts, missing keys), so it is
// loosely typed: every kind's fields are optional on one step shape, and the checker says what is missing.
// `toDefinition` writes the file the server stores: only the fields of each step's kind, no empty optionals.

export interface DraftOption {
  text: string;
  /** choice: the step it leads to; null = Retry; absent = the following step. */
  next_step?: string | null | undefined;
  feedback?: string | undefined;
  /** choice: a second best's credit. */
  credit?: number | undefined;
  /** multi: the option applies. */
  correct?: boolean | undefined;
}

export interface DraftStep {
  kind: StepKind;
  id: string;
  title: string;
  description: string;
  artifacts?: ScenarioArtifact[] | undefined;
  hint?: string | undefined;
  mitre_attack?: string | undefined;
  skill?: Skill | undefined;
  scored?: boolean | undefined;
  hint_cost?: number | undefined;
  feedback?: string | undefined;
  next_step?: string | undefined;
  below?: BelowBranch | undefined;
  options?: DraftOption[] | undefined;
  correct_option?: number | undefined;
  statement?: string | undefined;
  ask_confidence?: boolean | undefined;
  accept?: EstimateTerm[] | undefined;
  outcome?: boolean | undefined;
  artifact?: number | undefined;
  reliability?: ReliabilityGrade | undefined;
  credibility?: number | undefined;
  fields?: ExtractField[] | undefined;
  hypotheses?: string[] | undefined;
  evidence?: AchEvidence[] | undefined;
  best?: number | undefined;
  prompt?: string | undefined;
  max_words?: number | undefined;
  checks?: WriteChecks | undefined;
  rubric?: RubricCriterion[] | undefined;
  model_answer?: string | undefined;
  auto_weight?: number | undefined;
  /** Fields the editor does not know (kept, so the checker names them rather than the editor dropping them). */
  [unknownField: string]: unknown;
}

export interface DraftScenario {
  id?: string | undefined;
  name: string;
  type: string;
  difficulty: number;
  description: string;
  sources?: ScenarioSource[] | undefined;
  hint_cost?: number | undefined;
  steps: DraftStep[];
  [unknownField: string]: unknown;
}

const COMMON_FIELDS = [
  'kind',
  'id',
  'title',
  'description',
  'artifacts',
  'hint',
  'mitre_attack',
  'skill',
  'scored',
  'hint_cost',
  'feedback',
] as const;
const FLOW_FIELDS = ['next_step', 'below'] as const;

/** The fields each kind may carry, in the order a file writes them. */
export const KIND_FIELDS: Record<StepKind, readonly string[]> = {
  choice: [...COMMON_FIELDS, 'options', 'correct_option'],
  multi: [...COMMON_FIELDS, ...FLOW_FIELDS, 'options'],
  rank: [...COMMON_FIELDS, ...FLOW_FIELDS, 'options'],
  estimate: [...COMMON_FIELDS, ...FLOW_FIELDS, 'statement', 'ask_confidence', 'accept', 'outcome'],
  'grade-source': [...COMMON_FIELDS, ...FLOW_FIELDS, 'artifact', 'reliability', 'credibility'],
  extract: [...COMMON_FIELDS, ...FLOW_FIELDS, 'fields'],
  ach: [...COMMON_FIELDS, ...FLOW_FIELDS, 'hypotheses', 'evidence', 'best'],
  write: [...COMMON_FIELDS, ...FLOW_FIELDS, 'prompt', 'max_words', 'checks', 'rubric', 'model_answer', 'auto_weight'],
};

const KNOWN_STEP_FIELDS = new Set(Object.values(KIND_FIELDS).flat());

const OPTION_FIELDS: Partial<Record<StepKind, readonly (keyof DraftOption)[]>> = {
  choice: ['text', 'next_step', 'feedback', 'credit'],
  multi: ['text', 'correct', 'feedback'],
  rank: ['text', 'feedback'],
};

/** The fewest options a kind takes (a new step and a change of kind fill up to it). */
export const MIN_OPTIONS: Partial<Record<StepKind, number>> = { choice: 2, multi: 2, rank: 3 };
export const MAX_OPTIONS: Partial<Record<StepKind, number>> = { choice: 6, multi: 8, rank: 8 };
export const MAX_STEPS = 60;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isStepKind = (value: unknown): value is StepKind => STEP_KINDS.includes(value as StepKind);

function draftOption(value: unknown): DraftOption {
  if (typeof value === 'string') return { text: value };
  if (isRecord(value)) return { ...value, text: typeof value.text === 'string' ? value.text : '' } as DraftOption;
  return { text: '' };
}

function draftStep(value: unknown): DraftStep {
  const raw = isRecord(value) ? value : {};
  const step: DraftStep = {
    ...raw,
    kind: raw.kind === undefined ? 'choice' : isStepKind(raw.kind) ? raw.kind : 'choice',
    id: typeof raw.id === 'string' ? raw.id : '',
    title: typeof raw.title === 'string' ? raw.title : '',
    description: typeof raw.description === 'string' ? raw.description : '',
  };
  if (Array.isArray(raw.options)) step.options = raw.options.map(draftOption);
  return step;
}

/** The editor's copy of a definition as the server holds it (plain-string options become objects). */
export function toDraft(definition: unknown): DraftScenario {
  const raw = isRecord(definition) ? definition : {};
  return {
    ...raw,
    name: typeof raw.name === 'string' ? raw.name : '',
    type: typeof raw.type === 'string' ? raw.type : '',
    difficulty: typeof raw.difficulty === 'number' ? raw.difficulty : 1,
    description: typeof raw.description === 'string' ? raw.description : '',
    steps: Array.isArray(raw.steps) ? raw.steps.map(draftStep) : [],
  };
}

const isEmptyOptional = (value: unknown) => value === undefined || (typeof value === 'string' && value.trim() === '');

// Optional texts an author clears: written as absent, not as "".
const OPTIONAL_TEXTS = new Set(['hint', 'mitre_attack', 'feedback', 'title', 'source', 'date', 'context']);

function withoutEmptyOptionals(record: Record<string, unknown>, required: ReadonlySet<string>) {
  return Object.fromEntries(
    Object.entries(record).filter(
      ([key, value]) =>
        value !== undefined && (required.has(key) || !OPTIONAL_TEXTS.has(key) || !isEmptyOptional(value)),
    ),
  );
}

const STEP_REQUIRED_TEXTS = new Set(['id', 'title', 'description']);
const ARTIFACT_REQUIRED = new Set(['kind', 'content']);

function definitionStep(step: DraftStep): Record<string, unknown> {
  const allowed = new Set(KIND_FIELDS[step.kind]);
  const out: Record<string, unknown> = {};
  for (const field of KIND_FIELDS[step.kind]) {
    if (step[field] !== undefined) out[field] = step[field];
  }
  // Unknown fields stay for the checker to name; fields of another kind (left from a change of kind) go.
  for (const [field, value] of Object.entries(step)) {
    if (!allowed.has(field) && !KNOWN_STEP_FIELDS.has(field) && value !== undefined) out[field] = value;
  }
  const optionFields = OPTION_FIELDS[step.kind];
  if (optionFields && step.options) {
    out.options = step.options.map((option) => {
      const written: Record<string, unknown> = {};
      for (const field of optionFields) {
        const value = option[field];
        if (value === undefined) continue;
        if (field === 'feedback' && isEmptyOptional(value)) continue;
        if (field === 'correct' && value === false) continue;
        written[field] = value;
      }
      return written;
    });
  }
  if (step.artifacts) {
    out.artifacts = step.artifacts.map((artifact) =>
      withoutEmptyOptionals(artifact as unknown as Record<string, unknown>, ARTIFACT_REQUIRED),
    );
  }
  return withoutEmptyOptionals(out, STEP_REQUIRED_TEXTS);
}

/** The scenario file the server stores and the checker reads. */
export function toDefinition(draft: DraftScenario): Record<string, unknown> {
  const { steps, ...scenario } = draft;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(scenario)) {
    if (value === undefined) continue;
    if (key === 'id' && isEmptyOptional(value)) continue;
    if (key === 'sources' && Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  out.steps = steps.map(definitionStep);
  return out;
}

// --- new steps and kinds ----------------------------------------------------------------------------------

/** What a new step of each kind starts with (empty texts: the checker asks for them). */
export function kindDefaults(kind: StepKind): Partial<DraftStep> {
  switch (kind) {
    case 'choice':
      return { options: [{ text: '' }, { text: '' }], correct_option: 0 };
    case 'multi':
      return { options: [{ text: '', correct: true }, { text: '' }] };
    case 'rank':
      return { options: [{ text: '' }, { text: '' }, { text: '' }] };
    case 'estimate':
      return { statement: '', accept: [], outcome: true };
    case 'grade-source':
      return { artifacts: [{ kind: 'forum-post', content: '' }], artifact: 0, reliability: 'C', credibility: 3 };
    case 'extract':
      return { fields: [{ label: '', type: 'domain', accept: [] }] };
    case 'ach':
      return {
        hypotheses: ['', ''],
        evidence: [
          { text: '', marks: ['N', 'N'] },
          { text: '', marks: ['N', 'N'] },
        ],
        best: 0,
      };
    case 'write':
      return { prompt: '', max_words: 100, rubric: [{ criterion: '', points: 1 }], model_answer: '' };
  }
}

/** A step id not yet taken: `base`, else `base-2`, `base-3`... */
export function uniqueStepId(steps: readonly { id: string }[], base = 'step'): string {
  const taken = new Set(steps.map((step) => step.id));
  const stem = base.replace(/-\d+$/, '') || 'step';
  if (!taken.has(base) && base !== '') return base;
  for (let n = 2; ; n++) {
    const candidate = `${stem}-${n}`.slice(0, 64);
    if (!taken.has(candidate)) return candidate;
  }
}

export function newStep(steps: readonly { id: string }[], kind: StepKind): DraftStep {
  return {
    kind,
    id: uniqueStepId(steps, `step-${steps.length + 1}`),
    title: '',
    description: '',
    ...kindDefaults(kind),
  };
}

/** The step as another kind: its own fields are kept (and come back if the kind is changed back). */
export function changeKind(step: DraftStep, kind: StepKind): DraftStep {
  const defaults = kindDefaults(kind);
  const next: DraftStep = { ...step, kind };
  for (const [field, value] of Object.entries(defaults)) {
    if (next[field] === undefined) next[field] = value;
  }
  const minimum = MIN_OPTIONS[kind];
  if (minimum !== undefined && next.options && next.options.length < minimum) {
    next.options = [...next.options, ...Array.from({ length: minimum - next.options.length }, () => ({ text: '' }))];
  }
  if (kind === 'multi' && next.options && !next.options.some((option) => option.correct)) {
    next.options = next.options.map((option, index) => (index === 0 ? { ...option, correct: true } : option));
  }
  return next;
}

// --- edits -----------------------------------------------------------------------------------------------

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next;
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

export const removeAt = <T>(items: readonly T[], index: number): T[] => items.filter((_item, i) => i !== index);

export const replaceAt = <T>(items: readonly T[], index: number, item: T): T[] =>
  items.map((current, i) => (i === index ? item : current));

/** Every reference to `from` (options' and steps' `next_step`, `below.next_step`) now names `to`. */
function renameReferences(steps: readonly DraftStep[], from: string, to: string): DraftStep[] {
  if (from === '') return [...steps];
  return steps.map((step) => {
    let changed = false;
    const next = { ...step };
    if (step.next_step === from) {
      next.next_step = to;
      changed = true;
    }
    if (step.below?.next_step === from) {
      next.below = { ...step.below, next_step: to };
      changed = true;
    }
    if (step.options?.some((option) => option.next_step === from)) {
      next.options = step.options.map((option) => (option.next_step === from ? { ...option, next_step: to } : option));
      changed = true;
    }
    return changed ? next : step;
  });
}

/** Changes a step; a new id is carried into every reference to the old one (unless another step holds it). */
export function updateStep(draft: DraftScenario, index: number, patch: Partial<DraftStep>): DraftScenario {
  const current = draft.steps[index];
  if (!current) return draft;
  const updated: DraftStep = { ...current, ...patch };
  let steps = replaceAt(draft.steps, index, updated);
  if (patch.id !== undefined && patch.id !== current.id) {
    const oldIdStillUsed = steps.some((step) => step.id === current.id);
    if (!oldIdStillUsed) steps = renameReferences(steps, current.id, patch.id);
  }
  return { ...draft, steps };
}

export function updateScenario(draft: DraftScenario, patch: Partial<DraftScenario>): DraftScenario {
  return { ...draft, ...patch };
}

/** Adds a step of `kind` after `afterIndex` (at the end when null); answers the draft and the new index. */
export function addStep(
  draft: DraftScenario,
  afterIndex: number | null,
  kind: StepKind,
): { draft: DraftScenario; index: number } {
  const index = afterIndex === null ? draft.steps.length : afterIndex + 1;
  const steps = [...draft.steps];
  steps.splice(index, 0, newStep(draft.steps, kind));
  return { draft: { ...draft, steps }, index };
}

/** A copy of the step right after it, under a new id. */
export function duplicateStep(draft: DraftScenario, index: number): { draft: DraftScenario; index: number } {
  const step = draft.steps[index];
  if (!step) return { draft, index };
  const copy: DraftStep = structuredClone({ ...step, id: uniqueStepId(draft.steps, `${step.id || 'step'}-copy`) });
  const steps = [...draft.steps];
  steps.splice(index + 1, 0, copy);
  return { draft: { ...draft, steps }, index: index + 1 };
}

/** Deletes a step; options that led to it keep its id, so the checker shows where a way on is missing. */
export function deleteStep(draft: DraftScenario, index: number): DraftScenario {
  return { ...draft, steps: removeAt(draft.steps, index) };
}

export function moveStep(draft: DraftScenario, from: number, to: number): DraftScenario {
  return { ...draft, steps: moveItem(draft.steps, from, to) };
}

// --- options ---------------------------------------------------------------------------------------------

/** The step with its options changed; a choice step's `correct_option` follows the option it pointed at. */
export function editOptions(
  step: DraftStep,
  edit: { type: 'add' } | { type: 'remove'; index: number } | { type: 'move'; from: number; to: number },
): DraftStep {
  const options = step.options ?? [];
  const correct = step.correct_option;
  switch (edit.type) {
    case 'add':
      return { ...step, options: [...options, { text: '' }] };
    case 'remove': {
      const next: DraftStep = { ...step, options: removeAt(options, edit.index) };
      if (correct !== undefined) {
        if (correct === edit.index) next.correct_option = 0;
        else if (correct > edit.index) next.correct_option = correct - 1;
      }
      return next;
    }
    case 'move': {
      const next: DraftStep = { ...step, options: moveItem(options, edit.from, edit.to) };
      if (correct !== undefined) {
        const order = moveItem(
          options.map((_option, i) => i),
          edit.from,
          edit.to,
        );
        next.correct_option = order.indexOf(correct);
      }
      return next;
    }
  }
}

/** The file a brand-new scenario starts from: one decision to fill in. */
export function emptyScenario(): DraftScenario {
  return {
    name: '',
    type: 'Phishing',
    difficulty: 1,
    description: '',
    steps: [newStep([], 'choice')],
  };
}
