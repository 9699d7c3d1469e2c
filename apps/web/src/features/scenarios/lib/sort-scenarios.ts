import type { ScenarioListItem } from '@tradecraft/shared';

export type SortColumn = 'name' | 'type' | 'difficulty';
export type SortDirection = 'asc' | 'desc';
export interface SortState {
  column: SortColumn;
  direction: SortDirection;
}

/** The first click on a column sorts ascending, the next click on the same column descending. */
export function nextSort(current: SortState | null, column: SortColumn): SortState {
  if (current?.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}

export function sortScenarios(scenarios: readonly ScenarioListItem[], sort: SortState | null): ScenarioListItem[] {
  if (!sort) return [...scenarios];
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...scenarios].sort((a, b) => {
    const primary =
      sort.column === 'difficulty'
        ? a.difficulty - b.difficulty
        : a[sort.column].localeCompare(b[sort.column], undefined, { sensitivity: 'base' });
    return sign * primary || a.name.localeCompare(b.name);
  });
}
