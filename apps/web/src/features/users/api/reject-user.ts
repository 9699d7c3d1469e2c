import type { PendingUser } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pendingUsersQueryKey, usersQueryKey } from './get-pending-users';

/** Rejecting a registration deletes it. */
export const rejectUser = (id: string) => api.delete<{ ok: true }>(`/api/users/${encodeURIComponent(id)}`);

export function useRejectUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectUser,
    onSuccess: (_result, id) => {
      queryClient.setQueryData<PendingUser[]>(pendingUsersQueryKey, (users) => users?.filter((user) => user.id !== id));
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
  });
}
