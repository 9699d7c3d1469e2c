import type { XapiStatusResponse } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const xapiStatusQueryKey = ['xapi', 'status'] as const;

/** How statements to the Learning Record Store stand (off when XAPI_ENDPOINT is not set). */
export const getXapiStatus = () => api.get<XapiStatusResponse>('/api/xapi/status');

export const xapiStatusQueryOptions = () =>
  queryOptions({ queryKey: xapiStatusQueryKey, queryFn: getXapiStatus, refetchInterval: 60_000 });

export const useXapiStatus = () => useQuery(xapiStatusQueryOptions());
