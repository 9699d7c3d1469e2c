import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ScenarioVersions } from './types';
import { scenarioPath, scenarioVersionsKey } from './versions-keys';

/** The scenario's versions, newest first, with its draft (if any) and current version. */
export const getVersions = (scenarioId: string) => api.get<ScenarioVersions>(`${scenarioPath(scenarioId)}/versions`);

export const versionsQueryOptions = (scenarioId: string) =>
  queryOptions({ queryKey: [...scenarioVersionsKey(scenarioId), 'versions'], queryFn: () => getVersions(scenarioId) });

export function useVersions(scenarioId: string | null) {
  return useQuery({ ...versionsQueryOptions(scenarioId ?? ''), enabled: scenarioId !== null });
}
