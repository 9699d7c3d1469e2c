import type { UsersPage } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { progressQueryKey } from './get-user-progress';

/** Users whose name or email contains the text (Manage Users' list endpoint; admins only). */
export const searchUsers = (search: string) =>
  api.get<UsersPage>(withQuery('/api/users', { search: search.trim(), sort: 'name', pageSize: 20 }));

export const userSearchQueryOptions = (search: string) =>
  queryOptions({ queryKey: [...progressQueryKey, 'user-search', search.trim()], queryFn: () => searchUsers(search) });

export function useUserSearch(search: string, enabled: boolean) {
  return useQuery({ ...userSearchQueryOptions(search), enabled, staleTime: 30_000 });
}
