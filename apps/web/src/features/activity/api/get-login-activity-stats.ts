import type { LoginActivityStats } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { activityQueryKey } from './get-login-activity';

/** "Today" is the browser's day, sent as its time-zone offset. */
export const getLoginActivityStats = () =>
  api.get<LoginActivityStats>(withQuery('/api/logs/login-activity/stats', { tz: new Date().getTimezoneOffset() }));

export const loginActivityStatsQueryOptions = () =>
  queryOptions({ queryKey: [...activityQueryKey, 'stats'], queryFn: getLoginActivityStats });

export function useLoginActivityStats() {
  return useQuery(loginActivityStatsQueryOptions());
}
