import type { UsersListQuery, UsersPage } from '@tradecraft/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { usersQueryKey } from './get-pending-users';

export const getUsers = (query: UsersListQuery) => api.get<UsersPage>(withQuery('/api/users', { ...query }));

export const usersListQueryOptions = (query: UsersListQuery) =>
  queryOptions({
    queryKey: [...usersQueryKey, 'list', query],
    queryFn: () => getUsers(query),
    // The old page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export function useUsers(query: UsersListQuery) {
  return useQuery(usersListQueryOptions(query));
}
