import { checkScenario, type ScenarioProblem } from '@tradecraft/shared';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo } from 'react';
import { toDefinition, type DraftScenario } from '../lib/draft';
import { problemCountsByStep } from '../lib/problems';

export interface CheckedDraft {
  problems: ScenarioProblem[];
  warnings: ScenarioProblem[];
  problemCounts: Map<number, number>;
  /** The draft changed since the last check (a check follows 300 ms after typing stops). */
  checking: boolean;
}

const CHECK_DELAY_MS = 300;

/** The shared checker (the one uploads go through) run on the draft a moment after each change. */
export function useCheckedDraft(draft: DraftScenario): CheckedDraft {
  const [settled] = useDebouncedValue(draft, CHECK_DELAY_MS);
  const result = useMemo(() => {
    const check = checkScenario(toDefinition(settled));
    const problems = check.ok ? [] : check.problems;
    return { problems, warnings: check.warnings, problemCounts: problemCountsByStep(problems) };
  }, [settled]);
  return { ...result, checking: settled !== draft };
}
