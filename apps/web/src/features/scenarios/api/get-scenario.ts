import type { ScenarioDetail } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { scenariosQueryKey } from './get-scenarios';

/** One scenario: admins get the whole definition (view 'admin'), trainees its card only (view 'trainee'). */
export const getScenario = (id: string) => api.get<ScenarioDetail>(`/api/sim/${encodeURIComponent(id)}`);

export const scenarioQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...scenariosQueryKey, 'detail', id], queryFn: () => getScenario(id) });

export function useScenario(id: string | null) {
  return useQuery({ ...scenarioQueryOptions(id ?? ''), enabled: id !== null });
}
