import type { DashboardStats } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { browserTimeZone } from '../../../lib/time-zone';

// Under the users key, so approving or editing a user (which invalidates ['users']) refreshes the cards.
export const dashboardStatsQueryKey = ['users', 'dashboard-stats'] as const;

/** "Today" and "this week" are the admin's, in the browser's time zone. */
export const getDashboardStats = () =>
  api.get<DashboardStats>(withQuery('/api/users/dashboard-stats', { tz: browserTimeZone() }));

export const dashboardStatsQueryOptions = () =>
  queryOptions({ queryKey: dashboardStatsQueryKey, queryFn: getDashboardStats, refetchInterval: 60_000 });

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions());
}
