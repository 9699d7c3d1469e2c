import type { SetupChecklist, SetupItem } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { setupChecklistQueryKey } from './get-setup-checklist';

export const dismissSetupItem = (item: SetupItem) =>
  api.post<SetupChecklist>('/api/settings/setup-checklist/dismiss', { item });

/** The server answers the whole checklist, which replaces the cached one. */
export function useDismissSetupItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissSetupItem,
    onSuccess: (checklist) => queryClient.setQueryData(setupChecklistQueryKey, checklist),
  });
}
