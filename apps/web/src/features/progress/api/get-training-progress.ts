import type { TrainingProgressPage, TrainingProgressQuery } from '@tradecraft/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { progressQueryKey } from './get-user-progress';

export const getTrainingProgress = (query: TrainingProgressQuery) =>
  api.get<TrainingProgressPage>(withQuery('/api/progress/all', { ...query }));

export const trainingProgressQueryOptions = (query: TrainingProgressQuery) =>
  queryOptions({ queryKey: [...progressQueryKey, 'all', query], queryFn: () => getTrainingProgress(query) });

/** One page of Training Progress; the previous page stays on screen while the next one loads. */
export function useTrainingProgress(query: TrainingProgressQuery) {
  return useQuery({ ...trainingProgressQueryOptions(query), placeholderData: keepPreviousData });
}

/** The CSV export of the same search (a plain download: the browser sends the session cookie). */
export const trainingProgressCsvUrl = (search: string) => withQuery('/api/progress/all.csv', { search: search.trim() });
