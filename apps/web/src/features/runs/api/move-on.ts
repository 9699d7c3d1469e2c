import type { RunResponse } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runQueryKey } from './get-run';

export const moveOn = (runId: string) => api.post<RunResponse>(`/api/runs/${encodeURIComponent(runId)}/next`);

/** Next or Retry after an answer; past the last step the run comes back completed. */
export function useMoveOn(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => moveOn(runId),
    onSuccess: (result) => {
      queryClient.setQueryData(runQueryKey(runId), result);
      void queryClient.invalidateQueries({ queryKey: ['progress'] });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: runQueryKey(runId) }),
  });
}
