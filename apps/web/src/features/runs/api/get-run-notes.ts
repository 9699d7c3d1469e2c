import type { RunNotes } from '@tradecraft/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runQueryKey } from './get-run';

export const runNotesQueryKey = (runId: string) => [...runQueryKey(runId), 'notes'] as const;

export const getRunNotes = (runId: string) =>
  api.get<{ notes: RunNotes }>(`/api/runs/${encodeURIComponent(runId)}/notes`).then((answer) => answer.notes);

/** The trainee's own notebook of a run (404 for anyone else, so only asked for by the owner). */
export function useRunNotes(runId: string, enabled = true) {
  return useQuery({ queryKey: runNotesQueryKey(runId), queryFn: () => getRunNotes(runId), enabled, staleTime: 0 });
}
