import type { ScenarioProblem } from '@tradecraft/shared';

/** Where a checker problem belongs in the editor: a step (by index) and a field path inside it, or the scenario. */
export interface ProblemPlace {
  /** The step's index, or null for a scenario field (or the file as a whole). */
  stepIndex: number | null;
  /** The field inside the step or scenario, as the checker writes it (`options[1].next_step`); '' = the whole. */
  field: string;
}

const STEP_PATH = /^steps\[(\d+)\](?:\.?(.*))?$/;

/** `steps[2].options[1].next_step` → step 2, `options[1].next_step`; `name` → the scenario's `name`. */
export function problemPlace(path: string): ProblemPlace {
  const match = STEP_PATH.exec(path);
  if (match) return { stepIndex: Number(match[1]), field: match[2] ?? '' };
  if (path === '(file)') return { stepIndex: null, field: '' };
  return { stepIndex: null, field: path };
}

/** How many problems each step has (for the graph's marks and the step list). */
export function problemCountsByStep(problems: readonly ScenarioProblem[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const problem of problems) {
    const { stepIndex } = problemPlace(problem.path);
    if (stepIndex !== null) counts.set(stepIndex, (counts.get(stepIndex) ?? 0) + 1);
  }
  return counts;
}

/** The problems of one step, keyed by field path (a form shows each under its field). */
export function problemsOfStep(problems: readonly ScenarioProblem[], stepIndex: number): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  for (const problem of problems) {
    const place = problemPlace(problem.path);
    if (place.stepIndex !== stepIndex) continue;
    byField.set(place.field, [...(byField.get(place.field) ?? []), problem.message]);
  }
  return byField;
}

/** The problems of scenario fields, keyed by field path. */
export function scenarioProblems(problems: readonly ScenarioProblem[]): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  for (const problem of problems) {
    const place = problemPlace(problem.path);
    if (place.stepIndex !== null) continue;
    byField.set(place.field, [...(byField.get(place.field) ?? []), problem.message]);
  }
  return byField;
}

/**
 * The field paths to try, most precise first: `options[1].next_step`, `options[1]`, `options`, '' (the form's
 * first field). A problem on a field the form draws as part of a bigger control lands on that control.
 */
export function fieldCandidates(field: string): string[] {
  const candidates: string[] = [];
  let rest = field;
  while (rest !== '') {
    candidates.push(rest);
    const cut = Math.max(rest.lastIndexOf('.'), rest.lastIndexOf('['));
    rest = cut <= 0 ? '' : rest.slice(0, cut);
  }
  candidates.push('');
  return candidates;
}

/** The error text a form shows under a field: the problems at exactly that path. */
export function fieldError(byField: ReadonlyMap<string, string[]>, field: string): string | undefined {
  const messages = byField.get(field);
  return messages && messages.length > 0 ? messages.join('; ') : undefined;
}
