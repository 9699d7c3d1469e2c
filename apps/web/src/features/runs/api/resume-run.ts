import type { RunResponse } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runQueryKey } from './get-run';

export const resumeRun = (runId: string) => api.post<RunResponse>(`/api/runs/${encodeURIComponent(runId)}/resume`);

/** Resume: an ended run goes back in progress at the step where it stopped (a run in progress just continues). */
export function useResumeRun(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resumeRun(runId),
    onSuccess: (result) => {
      queryClient.setQueryData(runQueryKey(runId), result);
      void queryClient.invalidateQueries({ queryKey: ['progress'] });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: runQueryKey(runId) }),
  });
}
