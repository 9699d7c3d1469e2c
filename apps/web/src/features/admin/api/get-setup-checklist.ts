import type { SetupChecklist } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const setupChecklistQueryKey = ['setup-checklist'] as const;

export const getSetupChecklist = () => api.get<SetupChecklist>('/api/settings/setup-checklist');

export const setupChecklistQueryOptions = () =>
  queryOptions({ queryKey: setupChecklistQueryKey, queryFn: getSetupChecklist });

export function useSetupChecklist() {
  return useQuery(setupChecklistQueryOptions());
}
