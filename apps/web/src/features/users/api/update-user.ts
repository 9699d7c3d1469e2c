import type { ManagedUser, UpdateUserInput } from '@tradecraft/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-pending-users';

export const updateUser = ({ id, changes }: { id: string; changes: UpdateUserInput }) =>
  api.patch<{ user: ManagedUser }>(`/api/users/${encodeURIComponent(id)}`, changes);

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
