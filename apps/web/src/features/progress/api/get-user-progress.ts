import type { UserProgress } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every query of this feature starts with this key. */
export const progressQueryKey = ['progress'] as const;

export const getUserProgress = (email: string) =>
  api.get<UserProgress>(`/api/progress/user/${encodeURIComponent(email)}`);

export const userProgressQueryOptions = (email: string) =>
  queryOptions({ queryKey: [...progressQueryKey, 'user', email], queryFn: () => getUserProgress(email) });

/** The Progress Dashboard's one request: runs with step counts, timelines, summary and recommendations. */
export function useUserProgress(email: string | undefined) {
  return useQuery({ ...userProgressQueryOptions(email ?? ''), enabled: Boolean(email) });
}
