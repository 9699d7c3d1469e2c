import type { ScenarioProblem } from './check-scenario';
import type { ScenarioStep, StepOfKind } from './scenario.schema';

// The rules an ACH matrix's key must keep (docs/scenario-format.md, "ACH keys"). The checker calls them for
// every ach step; a broken rule refuses a built-in file and warns an upload.

/** Inconsistent marks per hypothesis, in the order of `hypotheses`. */
export function inconsistencies(step: StepOfKind<'ach'>): number[] {
  return step.hypotheses.map((_hypothesis, column) => step.evidence.filter((row) => row.marks[column] === 'I').length);
}

/** Evidence text as it reads: case, white space and punctuation do not make two rows different. */
const normaliseText = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const normaliseSource = (source: string) => source.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * `best` must be the one hypothesis with the fewest inconsistent rows: ACH keeps the hypothesis with the least
 * evidence against it, and a tie means the matrix has not yet told the hypotheses apart.
 */
function checkBest(step: StepOfKind<'ach'>, at: string): ScenarioProblem[] {
  const counts = inconsistencies(step);
  const fewest = Math.min(...counts);
  const keeping = counts.flatMap((count, index) => (count === fewest ? [index] : []));
  if (keeping.length === 1 && keeping[0] === step.best) return [];
  const names = (indexes: number[]) =>
    indexes.map((index) => `${index} ("${step.hypotheses[index] ?? ''}")`).join(', ');
  const message =
    keeping.length > 1
      ? `hypotheses ${names(keeping)} tie with ${fewest} inconsistent rows each; add evidence that tells them apart, ` +
        'since the key must be the one hypothesis with the fewest inconsistencies'
      : `best is ${step.best}, but hypothesis ${names(keeping)} has the fewest inconsistent rows (${fewest}, against ` +
        `${counts[step.best] ?? 0}); the key must be the one hypothesis with the fewest inconsistencies`;
  return [{ path: `${at}.best`, message }];
}

/**
 * Evidence rows must be independent: the same finding written twice (the same text), or one source's single
 * judgement split into two rows (the same `source` with the same marks), would count one judgement twice.
 */
function checkIndependence(step: StepOfKind<'ach'>, at: string): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const byText = new Map<string, number>();
  const bySourceAndMarks = new Map<string, number>();
  step.evidence.forEach((row, rowIndex) => {
    const text = normaliseText(row.text);
    const sameText = byText.get(text);
    if (sameText !== undefined) {
      problems.push({
        path: `${at}.evidence[${rowIndex}].text`,
        message: `repeats evidence row ${sameText}; each finding is one row`,
      });
    } else byText.set(text, rowIndex);
    if (row.source === undefined) return;
    const key = `${normaliseSource(row.source)}\u0000${row.marks.join('')}`;
    const sameJudgement = bySourceAndMarks.get(key);
    if (sameJudgement !== undefined) {
      problems.push({
        path: `${at}.evidence[${rowIndex}]`,
        message:
          `repeats the judgement of evidence row ${sameJudgement} (the same source, "${row.source}", with the same ` +
          'marks); one source saying one thing is one row, however many documents carry it',
      });
    } else bySourceAndMarks.set(key, rowIndex);
  });
  return problems;
}

/** Every ACH key rule for one step; `stepIndex` places the problems. */
export function checkAchKey(step: ScenarioStep, stepIndex: number): ScenarioProblem[] {
  if (step.kind !== 'ach') return [];
  const at = `steps[${stepIndex}]`;
  // A matrix of the wrong width or a best out of range is reported by the key checks; nothing to add here.
  if (step.best >= step.hypotheses.length || step.evidence.some((row) => row.marks.length !== step.hypotheses.length))
    return [];
  return [...checkBest(step, at), ...checkIndependence(step, at)];
}
