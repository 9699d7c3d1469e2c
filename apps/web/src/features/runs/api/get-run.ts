import type { RunResponse } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every run's query key starts here; the progress lists live under ['progress']. */
export const runsQueryKey = ['runs'] as const;
export const runQueryKey = (runId: string) => [...runsQueryKey, runId] as const;

export const getRun = (runId: string) => api.get<RunResponse>(`/api/runs/${encodeURIComponent(runId)}`);

// Every change comes back from the server and replaces the cached run; a later visit (resume, another tab
// may have played on) reads it again.
export const runQueryOptions = (runId: string) =>
  queryOptions({ queryKey: runQueryKey(runId), queryFn: () => getRun(runId), staleTime: 5_000 });

/** The whole state of a run: the server is the truth, every change comes back from it. */
export function useRun(runId: string) {
  return useQuery(runQueryOptions(runId));
}
