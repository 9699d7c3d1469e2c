import type { AnswerInput, PracticeResponse } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runQueryKey } from './get-run';

const practicePath = (runId: string) => `/api/runs/${encodeURIComponent(runId)}/practice`;

export const startPractice = (runId: string, stepId: string) =>
  api.post<PracticeResponse>(practicePath(runId), { stepId });

export const answerPractice = (runId: string, practiceId: string, input: AnswerInput) =>
  api.post<PracticeResponse>(`${practicePath(runId)}/${encodeURIComponent(practiceId)}/answer`, input);

/** "Practise this step": the server sends the missed step as the player shows it before an answer. */
export function useStartPractice(runId: string) {
  return useMutation({ mutationFn: (stepId: string) => startPractice(runId, stepId) });
}

/** The one answer of a practice attempt; the run is read again for its practice record (its score never moves). */
export function useAnswerPractice(runId: string, practiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AnswerInput) => answerPractice(runId, practiceId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runQueryKey(runId) }),
  });
}
