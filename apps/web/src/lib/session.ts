import type { SessionUser } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

export const sessionQueryKey = ['auth', 'me'] as const;

export const getSession = () => api.get<{ user: SessionUser | null }>('/api/auth/me');

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: sessionQueryKey, queryFn: getSession, staleTime: 30_000, retry: 1 });

/** The signed-in user (null when signed out); the server re-checks on every request. */
export function useSession() {
  const query = useQuery(sessionQueryOptions());
  return { user: query.data?.user ?? null, isLoading: query.isPending, error: query.error, refetch: query.refetch };
}
