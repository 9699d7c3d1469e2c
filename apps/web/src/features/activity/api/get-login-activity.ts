import {
  LOGIN_ACTIVITY_CSV_FILENAME,
  LOGIN_ACTIVITY_XLSX_FILENAME,
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

/** Every event matching the filters as CSV or XLSX: the browser downloads it straight from the server. */
export function loginActivityExportUrl(
  filters: Pick<LoginActivityQuery, 'search' | 'event' | 'from' | 'to'>,
  format: 'csv' | 'xlsx',
): string {
  return withQuery(`/api/logs/login-activity.${format}`, { ...filters, tz: browserTimeZone() });
}

export const LOGIN_ACTIVITY_FILENAMES = {
  csv: LOGIN_ACTIVITY_CSV_FILENAME,
  xlsx: LOGIN_ACTIVITY_XLSX_FILENAME,
} as const;
