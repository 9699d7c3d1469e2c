import type { ItemAnalysis } from '@tradecraft/shared';
import { useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';

/** The analysis of one version of a scenario; without `version`, the server picks the newest with runs. */
export const getItemAnalysis = (scenarioId: string, version: number | null) =>
  api.get<ItemAnalysis>(withQuery(`/api/item-analysis/${encodeURIComponent(scenarioId)}`, { version }));
export function useItemAnalysis(scenarioId: string | null, version: number | null) {
  return useQuery({
    queryKey: ['item-analysis', scenarioId, version],
    queryFn: () => getItemAnalysis(scenarioId!, version),
    enabled: scenarioId !== null,
  });
}
