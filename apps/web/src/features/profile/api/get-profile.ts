import type { Profile } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const profileQueryKey = ['profile'] as const;

export const getProfile = () => api.get<{ profile: Profile }>('/api/profile').then((response) => response.profile);

export const profileQueryOptions = () => queryOptions({ queryKey: profileQueryKey, queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQueryOptions());
}
