import type { Assignment, CreateAssignmentInput, MyAssignments, Remediation, ScenarioList } from '@tradecraft/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { cohortsQueryKey } from './cohorts';

export const myAssignmentsQueryKey = ['assignments', 'mine'] as const;

export const getMyAssignments = () => api.get<MyAssignments>('/api/assignments/mine');
/** The trainee's own assignments, undone first; refreshed when the tab comes back. */
export function useMyAssignments() {
  return useQuery({ queryKey: myAssignmentsQueryKey, queryFn: getMyAssignments, refetchOnWindowFocus: true });
}

export const getMyRemediation = () => api.get<Remediation>('/api/remediation/mine');
export function useMyRemediation() {
  return useQuery({ queryKey: ['remediation', 'mine'], queryFn: getMyRemediation });
}

export const createAssignments = (input: CreateAssignmentInput) =>
  api.post<{ items: Assignment[] }>('/api/assignments', input);
export function useCreateAssignments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAssignments,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: cohortsQueryKey }),
  });
}

export const cancelAssignment = (id: string) => api.delete<{ ok: true }>(`/api/assignments/${encodeURIComponent(id)}`);
export function useCancelAssignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelAssignment,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: cohortsQueryKey }),
  });
}

/** The published scenarios to choose from (names and ids). */
export function useScenarioChoices() {
  return useQuery({
    queryKey: ['programmes', 'scenario-choices'],
    queryFn: () =>
      api
        .get<ScenarioList>('/api/sim/list')
        .then((list) => list.scenarios.map((scenario) => ({ value: scenario.id, label: scenario.name }))),
    staleTime: 60_000,
  });
}
