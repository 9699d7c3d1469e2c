import type { LoginActivityStats } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { browserTimeZone } from '../../../lib/time-zone';
import { activityQueryKey } from './get-login-activity';

/** "Today" is the admin's day, in the browser's time zone. */
export const getLoginActivityStats = () =>
  api.get<LoginActivityStats>(withQuery('/api/logs/login-activity/stats', { tz: browserTimeZone() }));

export const loginActivityStatsQueryOptions = () =>
  queryOptions({ queryKey: [...activityQueryKey, 'stats'], queryFn: getLoginActivityStats });

export function useLoginActivityStats() {
  return useQuery(loginActivityStatsQueryOptions());
}
