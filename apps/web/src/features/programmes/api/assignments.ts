import type { Assignment, Choices, CreateAssignmentInput, MyAssignments, Remediation } from '@tradecraft/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import type { ChoicesPage } from '../../../ui/search-select';
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

/** A scenario picker's choices: the first 20 published scenarios whose name holds the search. */
export const getScenarioChoices = async (search: string): Promise<ChoicesPage> => {
  const choices = await api.get<Choices>(
    withQuery('/api/assignments/scenario-choices', { search: search || undefined }),
  );
  return { items: choices.items.map((scenario) => ({ value: scenario.id, label: scenario.name })), more: choices.more };
};
export const scenarioChoicesKey = ['programmes', 'scenario-choices'] as const;
