import type { AuditLogQuery, AuditPage } from '@tradecraft/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { browserTimeZone } from '../../../lib/time-zone';

export const auditQueryKey = ['audit'] as const;
export const AUDIT_EXPORT_FILENAME = 'audit_logs.xlsx';

export const getAuditLogs = (query: AuditLogQuery) =>
  api.get<AuditPage>(withQuery('/api/audit/logs', { ...query, tz: browserTimeZone() }));

export const auditLogsQueryOptions = (query: AuditLogQuery) =>
  queryOptions({
    queryKey: [...auditQueryKey, 'logs', query],
    queryFn: () => getAuditLogs(query),
    placeholderData: keepPreviousData,
  });

export function useAuditLogs(query: AuditLogQuery) {
  return useQuery(auditLogsQueryOptions(query));
}

/** audit_logs.xlsx for the two dates (both days included, in the admin's time zone). */
export function auditExportUrl(startDate: string, endDate: string): string {
  return withQuery('/api/audit/export', { start_date: startDate, end_date: endDate, tz: browserTimeZone() });
}
