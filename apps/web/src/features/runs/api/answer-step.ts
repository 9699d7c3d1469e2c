import type { AnswerInput, AnswerResult } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runQueryKey } from './get-run';

export const answerStep = (runId: string, input: AnswerInput) =>
  api.post<AnswerResult>(`/api/runs/${encodeURIComponent(runId)}/answer`, input);

/** Answers the current step; the server's verdict and the new run state replace what the page shows. */
export function useAnswerStep(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AnswerInput) => answerStep(runId, input),
    onSuccess: (result) => {
      queryClient.setQueryData(runQueryKey(runId), { run: result.run });
      void queryClient.invalidateQueries({ queryKey: ['progress'] });
    },
    // Answered elsewhere (another tab) or finished: show the server's state instead of a stale one.
    onError: () => queryClient.invalidateQueries({ queryKey: runQueryKey(runId) }),
  });
}
