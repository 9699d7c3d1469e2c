import type {
  CohortDetail,
  CohortList,
  CohortSummary,
  Coverage,
  Remediation,
  TraineeSearch,
  UpdateCohortInput,
} from '@tradecraft/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';

// The cohort endpoints (admins): one fetcher and hook each; every change refreshes the cohort queries.

export const cohortsQueryKey = ['cohorts'] as const;

/** What a programmes list asks for: a page, searched by name, archived ones too or not. */
export interface ListQuery {
  search?: string | undefined;
  archived?: 'true' | undefined;
  page: number;
  pageSize: number;
}
const listParams = ({ search, archived, page, pageSize }: ListQuery) => ({ search, archived, page, pageSize });

export const getCohorts = (query: ListQuery) => api.get<CohortList>(withQuery('/api/cohorts', listParams(query)));
/** A page of cohorts by name; the old page stays on screen while the next one loads. */
export function useCohorts(query: ListQuery) {
  return useQuery({
    queryKey: [...cohortsQueryKey, 'list', listParams(query)],
    queryFn: () => getCohorts(query),
    placeholderData: keepPreviousData,
  });
}

export const getCohort = (id: string) => api.get<CohortDetail>(`/api/cohorts/${encodeURIComponent(id)}`);
export function useCohort(id: string) {
  return useQuery({ queryKey: [...cohortsQueryKey, 'detail', id], queryFn: () => getCohort(id) });
}

export const getCoverage = (id: string) => api.get<Coverage>(`/api/cohorts/${encodeURIComponent(id)}/coverage`);
export function useCoverage(id: string) {
  return useQuery({ queryKey: [...cohortsQueryKey, 'coverage', id], queryFn: () => getCoverage(id) });
}

export const cohortCsvUrl = (id: string) => `/api/cohorts/${encodeURIComponent(id)}/matrix.csv`;
export const cohortLayerUrl = (id: string) => `/api/cohorts/${encodeURIComponent(id)}/layer`;

export const searchTrainees = (search: string) =>
  api.get<TraineeSearch>(withQuery('/api/cohorts/trainees', { search }));
export function useTraineeSearch(search: string) {
  return useQuery({
    queryKey: [...cohortsQueryKey, 'trainees', search],
    queryFn: () => searchTrainees(search),
    placeholderData: keepPreviousData,
  });
}

export const getRemediation = (userId: string) =>
  api.get<Remediation>(`/api/remediation/${encodeURIComponent(userId)}`);
export function useRemediation(userId: string | null) {
  return useQuery({
    queryKey: [...cohortsQueryKey, 'remediation', userId],
    queryFn: () => getRemediation(userId!),
    enabled: userId !== null,
  });
}

function useCohortMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: cohortsQueryKey }),
  });
}

export const createCohort = (name: string) => api.post<CohortSummary>('/api/cohorts', { name });
export const useCreateCohort = () => useCohortMutation(createCohort);

export const updateCohort = ({ id, ...input }: UpdateCohortInput & { id: string }) =>
  api.patch<CohortSummary>(`/api/cohorts/${encodeURIComponent(id)}`, input);
export const useUpdateCohort = () => useCohortMutation(updateCohort);

export const changeMembers = ({ id, change, userIds }: { id: string; change: 'add' | 'remove'; userIds: string[] }) =>
  api.post<{ changed: number; memberCount: number }>(`/api/cohorts/${encodeURIComponent(id)}/members/${change}`, {
    userIds,
  });
export const useChangeMembers = () => useCohortMutation(changeMembers);
