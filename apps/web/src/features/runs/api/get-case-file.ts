import type { CaseFile, RunNotes, RunPin } from '@tradecraft/shared';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { runQueryKey } from './get-run';

export const caseFileQueryKey = (runId: string) => [...runQueryKey(runId), 'case-file'] as const;

export const getCaseFile = (runId: string) =>
  api.get<{ caseFile: CaseFile }>(`/api/runs/${encodeURIComponent(runId)}/case-file`).then((answer) => answer.caseFile);

// Read afresh each time the case file opens: the run may have reached a step since.
export const caseFileQueryOptions = (runId: string) =>
  queryOptions({ queryKey: caseFileQueryKey(runId), queryFn: () => getCaseFile(runId), staleTime: 0 });

/** The artifacts of every step the run has reached, the notebook and the evidence board (the run's owner only). */
export function useCaseFile(runId: string) {
  return useQuery(caseFileQueryOptions(runId));
}

/** Puts a change the server answered with into the cached case file, if it is loaded. */
export function updateCachedCaseFile(
  queryClient: QueryClient,
  runId: string,
  change: { notes?: RunNotes; pins?: RunPin[] },
) {
  queryClient.setQueryData<CaseFile>(caseFileQueryKey(runId), (file) => (file ? { ...file, ...change } : file));
}
