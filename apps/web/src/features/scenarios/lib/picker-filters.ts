import type { ScenarioListItem } from '@tradecraft/shared';

export const ALL = 'all';

export const PICKER_SORTS = ['recommended', 'difficulty', 'newest', 'unplayed'] as const;
export type PickerSort = (typeof PICKER_SORTS)[number];

export const SORT_LABELS: Record<PickerSort, string> = {
  recommended: 'Recommended',
  difficulty: 'Difficulty',
  newest: 'Newest',
  unplayed: 'Not yet played',
};

/** What the picker shows; it lives in the address (?q=&difficulty=&type=&sort=), so a link reproduces it. */
export interface PickerView {
  /** Words to find in the name or description, or the start of a technique id (T1566). */
  q: string;
  /** ALL or a difficulty as text ('3'). */
  difficulty: string;
  /** ALL or a type. */
  type: string;
  sort: PickerSort;
}

export const DEFAULT_VIEW: PickerView = { q: '', difficulty: ALL, type: ALL, sort: 'recommended' };

const isSort = (value: string | null): value is PickerSort =>
  (PICKER_SORTS as readonly (string | null)[]).includes(value);

/** The view a query string describes; anything missing or unknown takes its default. */
export function readPickerView(params: URLSearchParams): PickerView {
  const sort = params.get('sort');
  return {
    q: params.get('q') ?? '',
    difficulty: params.get('difficulty') || ALL,
    type: params.get('type') || ALL,
    sort: isSort(sort) ? sort : DEFAULT_VIEW.sort,
  };
}

/** The query string of a view, leaving out what is at its default (a plain /scenarios is the default view). */
export function writePickerView(view: PickerView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  if (view.difficulty !== ALL) params.set('difficulty', view.difficulty);
  if (view.type !== ALL) params.set('type', view.type);
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', view.sort);
  return params;
}

/** True when the view narrows the list (the sort only orders it). */
export const isNarrowed = (view: PickerView) => view.q.trim() !== '' || view.difficulty !== ALL || view.type !== ALL;

/** The filter options: only values some scenario has, difficulties ascending, types by name. */
export function filterOptions(scenarios: readonly ScenarioListItem[]) {
  const difficulties = [...new Set(scenarios.map((scenario) => scenario.difficulty))].sort((a, b) => a - b);
  const types = [...new Set(scenarios.map((scenario) => scenario.type))].sort((a, b) => a.localeCompare(b));
  return { difficulties, types };
}

const words = (query: string) => query.toLowerCase().split(/\s+/).filter(Boolean);

/** The scenario's techniques that a search names (T1566 finds T1566 and T1566.001). */
export function matchedTechniques(scenario: ScenarioListItem, query: string): string[] {
  const terms = words(query);
  return scenario.techniques.filter((id) => terms.some((term) => id.toLowerCase().startsWith(term)));
}

/** Every word of the query is in the name, the type or the description, or starts one of the techniques' ids. */
export function matchesSearch(scenario: ScenarioListItem, query: string): boolean {
  const text = `${scenario.name}\n${scenario.type}\n${scenario.description}`.toLowerCase();
  const techniques = scenario.techniques.map((id) => id.toLowerCase());
  return words(query).every((term) => text.includes(term) || techniques.some((id) => id.startsWith(term)));
}

/** Not started, then in progress, then completed: what "Not yet played" puts first. */
function playedRank(scenario: ScenarioListItem): number {
  if (scenario.progress.best !== null || scenario.progress.completedRuns > 0) return 2;
  return scenario.progress.inProgress !== null ? 1 : 0;
}

const byRecommendation = (a: ScenarioListItem, b: ScenarioListItem) =>
  Number(b.startHere) - Number(a.startHere) || Number(b.recommended) - Number(a.recommended);

const COMPARE: Record<PickerSort, (a: ScenarioListItem, b: ScenarioListItem) => number> = {
  recommended: byRecommendation,
  difficulty: (a, b) => a.difficulty - b.difficulty,
  newest: (a, b) => b.publishedAt.localeCompare(a.publishedAt),
  unplayed: (a, b) => playedRank(a) - playedRank(b) || byRecommendation(a, b),
};

/** The scenarios the view shows, in its order (then by name). */
export function applyView(scenarios: readonly ScenarioListItem[], view: PickerView): ScenarioListItem[] {
  const compare = COMPARE[view.sort];
  return scenarios
    .filter((scenario) => view.difficulty === ALL || String(scenario.difficulty) === view.difficulty)
    .filter((scenario) => view.type === ALL || scenario.type === view.type)
    .filter((scenario) => matchesSearch(scenario, view.q))
    .sort((a, b) => compare(a, b) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}
