import type { UserStats } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { usersQueryKey } from './get-pending-users';

export const getUserStats = () => api.get<UserStats>('/api/users/stats');

export const userStatsQueryOptions = () =>
  queryOptions({ queryKey: [...usersQueryKey, 'stats'], queryFn: getUserStats });

export function useUserStats() {
  return useQuery(userStatsQueryOptions());
}
