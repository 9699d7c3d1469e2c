import type { RunNotes } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { updateCachedCaseFile } from './get-case-file';
import { runNotesQueryKey } from './get-run-notes';

export const saveRunNotes = (runId: string, text: string) =>
  api.put<{ notes: RunNotes }>(`/api/runs/${encodeURIComponent(runId)}/notes`, { text }).then((answer) => answer.notes);

/** Saves the whole notebook; the saved copy replaces the cached one. */
export function useSaveRunNotes(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => saveRunNotes(runId, text),
    onSuccess: (notes) => {
      queryClient.setQueryData(runNotesQueryKey(runId), notes);
      updateCachedCaseFile(queryClient, runId, { notes });
    },
  });
}
