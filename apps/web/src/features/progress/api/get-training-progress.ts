import {
  TRAINING_PROGRESS_CSV_FILENAME,
  TRAINING_PROGRESS_XLSX_FILENAME,
  type TrainingProgressPage,
  type TrainingProgressQuery,
} from '@tradecraft/shared';
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

/** The CSV or XLSX export of the same search (a plain download: the browser sends the session cookie). */
export const trainingProgressExportUrl = (search: string, format: 'csv' | 'xlsx') =>
  withQuery(`/api/progress/all.${format}`, { search: search.trim() });

export const TRAINING_PROGRESS_FILENAMES = {
  csv: TRAINING_PROGRESS_CSV_FILENAME,
  xlsx: TRAINING_PROGRESS_XLSX_FILENAME,
} as const;
