import type { ItemAnalysis } from '@tradecraft/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const getItemAnalysis = (scenarioId: string) =>
  api.get<ItemAnalysis>(`/api/item-analysis/${encodeURIComponent(scenarioId)}`);
export function useItemAnalysis(scenarioId: string | null) {
  return useQuery({
    queryKey: ['item-analysis', scenarioId],
    queryFn: () => getItemAnalysis(scenarioId!),
    enabled: scenarioId !== null,
  });
}
