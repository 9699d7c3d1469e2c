import type { ApproveUserInput, PendingUser, SessionUser } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { pendingUsersQueryKey, usersQueryKey } from './get-pending-users';

export const approveUser = ({ id, role }: { id: string } & ApproveUserInput) =>
  api.post<{ user: SessionUser }>(`/api/users/${encodeURIComponent(id)}/approve`, { role });

/** On success the user leaves the pending list at once; the counts refresh behind it. */
export function useApproveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveUser,
    onSuccess: (_result, { id }) => {
      queryClient.setQueryData<PendingUser[]>(pendingUsersQueryKey, (users) => users?.filter((user) => user.id !== id));
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
  });
}
