import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { scenariosQueryKey } from './get-scenarios';

export const deleteScenario = (id: string) =>
  api.delete<{ ok: true }>(`/api/sim/${encodeURIComponent(id)}`);

export function useDeleteScenario() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteScenario,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scenariosQueryKey }),
  });
}
