import type { PendingUser } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every query of this feature starts with this key, so one invalidation refreshes lists, cards and the dashboard. */
export const usersQueryKey = ['users'] as const;
export const pendingUsersQueryKey = [...usersQueryKey, 'pending'] as const;

export const getPendingUsers = () =>
  api.get<{ users: PendingUser[] }>('/api/users/pending').then((response) => response.users);

export const pendingUsersQueryOptions = () =>
  queryOptions({ queryKey: pendingUsersQueryKey, queryFn: getPendingUsers });

export function usePendingUsers() {
  return useQuery(pendingUsersQueryOptions());
}
