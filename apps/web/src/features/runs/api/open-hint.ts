import type { HintResult } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runQueryKey } from './get-run';

export const openHint = (runId: string, stepId: string) =>
  api.post<HintResult>(`/api/runs/${encodeURIComponent(runId)}/hint`, { stepId });

/** Opens the current step's hint; the server records it (and any charge) and sends the run back with its text. */
export function useOpenHint(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (stepId: string) => openHint(runId, stepId),
    onSuccess: (result) => queryClient.setQueryData(runQueryKey(runId), { run: result.run }),
    onError: () => queryClient.invalidateQueries({ queryKey: runQueryKey(runId) }),
  });
}
