import type { ScenarioList, ScenarioListItem } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every query of this feature starts with this key, so one invalidation refreshes the picker and the configurator. */
export const scenariosQueryKey = ['scenarios'] as const;
export const scenarioListQueryKey = [...scenariosQueryKey, 'list'] as const;

export const getScenarios = (): Promise<ScenarioListItem[]> =>
  api.get<ScenarioList>('/api/sim/list').then((response) => response.scenarios);

export const scenariosQueryOptions = () => queryOptions({ queryKey: scenarioListQueryKey, queryFn: getScenarios });

export function useScenarios() {
  return useQuery(scenariosQueryOptions());
}
