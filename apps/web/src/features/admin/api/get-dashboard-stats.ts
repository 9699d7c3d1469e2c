import type { DashboardStats } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';

// Under the users key, so approving or editing a user (which invalidates ['users']) refreshes the cards.
export const dashboardStatsQueryKey = ['users', 'dashboard-stats'] as const;

/** "Today" and "this week" are the browser's, sent as its time-zone offset. */
export const getDashboardStats = () =>
  api.get<DashboardStats>(withQuery('/api/users/dashboard-stats', { tz: new Date().getTimezoneOffset() }));

export const dashboardStatsQueryOptions = () =>
  queryOptions({ queryKey: dashboardStatsQueryKey, queryFn: getDashboardStats, refetchInterval: 60_000 });

export function useDashboardStats() {
  return useQuery(dashboardStatsQueryOptions());
}
