import type { RunResponse } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runQueryKey } from './get-run';

export const endRun = (runId: string) => api.post<RunResponse>(`/api/runs/${encodeURIComponent(runId)}/end`);

/** End Simulation: the run finishes at once as ended, keeping its score. */
export function useEndRun(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => endRun(runId),
    onSuccess: (result) => {
      queryClient.setQueryData(runQueryKey(runId), result);
      void queryClient.invalidateQueries({ queryKey: ['progress'] });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: runQueryKey(runId) }),
  });
}
