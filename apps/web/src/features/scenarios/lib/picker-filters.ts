import type { ScenarioListItem } from '@tradecraft/shared';

export const ALL = 'all';

export interface PickerFilters {
  /** ALL or a difficulty as text ('3'). */
  difficulty: string;
  /** ALL or a type. */
  type: string;
}

export const NO_FILTERS: PickerFilters = { difficulty: ALL, type: ALL };

/** The filter options: only values some scenario has, difficulties ascending, types by name. */
export function filterOptions(scenarios: readonly ScenarioListItem[]) {
  const difficulties = [...new Set(scenarios.map((scenario) => scenario.difficulty))].sort((a, b) => a - b);
  const types = [...new Set(scenarios.map((scenario) => scenario.type))].sort((a, b) => a.localeCompare(b));
  return { difficulties, types };
}

/** The scenarios that match both filters: recommended first, then by name. */
export function applyFilters(scenarios: readonly ScenarioListItem[], filters: PickerFilters): ScenarioListItem[] {
  return scenarios
    .filter((scenario) => filters.difficulty === ALL || String(scenario.difficulty) === filters.difficulty)
    .filter((scenario) => filters.type === ALL || scenario.type === filters.type)
    .sort((a, b) => Number(b.recommended) - Number(a.recommended) || a.name.localeCompare(b.name));
}
