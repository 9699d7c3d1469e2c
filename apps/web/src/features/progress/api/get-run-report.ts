import type { RunReport } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { progressQueryKey } from './get-user-progress';

export const getRunReport = (runId: string) =>
  api.get<RunReport>(`/api/progress/runs/${encodeURIComponent(runId)}/report`);

export const runReportQueryOptions = (runId: string) =>
  queryOptions({ queryKey: [...progressQueryKey, 'report', runId], queryFn: () => getRunReport(runId) });

export function useRunReport(runId: string) {
  return useQuery(runReportQueryOptions(runId));
}
