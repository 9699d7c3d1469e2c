import type { Meta } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const metaQueryKey = ['meta'] as const;

export const getMeta = () => api.get<Meta>('/api/meta');

/** The installation's repository and ATT&CK release: they change only with a restart. */
export const metaQueryOptions = () => queryOptions({ queryKey: metaQueryKey, queryFn: getMeta, staleTime: Infinity });

export function useMeta() {
  return useQuery(metaQueryOptions());
}
