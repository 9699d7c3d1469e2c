import {
  LOGIN_ACTIVITY_CSV_FILENAME,
  type LoginActivityPage,
  type LoginActivityQuery,
} from '@tradecraft/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { browserTimeZone } from '../../../lib/time-zone';

export const activityQueryKey = ['activity'] as const;

export const getLoginActivity = (query: LoginActivityQuery) =>
  api.get<LoginActivityPage>(withQuery('/api/logs/login-activity', { ...query, tz: browserTimeZone() }));

export const loginActivityQueryOptions = (query: LoginActivityQuery) =>
  queryOptions({
    queryKey: [...activityQueryKey, 'login', query],
    queryFn: () => getLoginActivity(query),
    placeholderData: keepPreviousData,
  });

export function useLoginActivity(query: LoginActivityQuery) {
  return useQuery(loginActivityQueryOptions(query));
}

/** The CSV of every event matching the filters: the browser downloads it straight from the server. */
export function loginActivityCsvUrl(filters: Pick<LoginActivityQuery, 'search' | 'event' | 'from' | 'to'>): string {
  return withQuery('/api/logs/login-activity.csv', { ...filters, tz: browserTimeZone() });
}

export { LOGIN_ACTIVITY_CSV_FILENAME };
