import type { ScenarioCount } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** `scenarioCount`: the number of scenarios the trainee has seen, kept in local storage. */
export const SCENARIO_COUNT_KEY = 'scenarioCount';

/** One small count query; the list itself is the picker's. */
export const getScenarioCount = () => api.get<ScenarioCount>('/api/sim/list/count').then((response) => response.count);

export const scenarioCountQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications', 'scenario-count'],
    queryFn: getScenarioCount,
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
    // Without the list the bell simply shows no scenario news; no need to insist.
    retry: false,
  });

export function useScenarioCount(enabled: boolean) {
  return useQuery({ ...scenarioCountQueryOptions(), enabled });
}

export function readSeenScenarioCount(): number {
  try {
    const stored = Number(window.localStorage.getItem(SCENARIO_COUNT_KEY));
    return Number.isFinite(stored) && stored >= 0 ? stored : 0;
  } catch {
    return 0;
  }
}

export function writeSeenScenarioCount(count: number): void {
  try {
    window.localStorage.setItem(SCENARIO_COUNT_KEY, String(count));
  } catch {
    /* storage blocked: the news shows again next visit */
  }
}
