import { z } from 'zod';
import { pageOf, pageQuerySchema, sortDirectionSchema } from '../paging/paging';
import { timeZoneSchema } from '../time/time-zone.schema';

export const AUDIT_SORT_COLUMNS = ['actor', 'action', 'details', 'screen', 'timestamp'] as const;
export type AuditSortColumn = (typeof AUDIT_SORT_COLUMNS)[number];

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must look like 2026-11-21.');
const optionalDate = z.preprocess((value) => (value === '' ? undefined : value), isoDate.optional());
const filterText = z.string().trim().max(200).optional();
const tz = timeZoneSchema;

/** GET /api/audit/logs: case-insensitive "contains" filters, whole-day date range, sort and paging. */
export const auditLogQuerySchema = z.object({
  actor: filterText,
  action: filterText,
  details: filterText,
  screen: filterText,
  start_date: optionalDate,
  end_date: optionalDate,
  tz,
  ...pageQuerySchema.shape,
  sort: z.enum(AUDIT_SORT_COLUMNS).default('timestamp'),
  dir: sortDirectionSchema.default('desc'),
});
/** What a client may send (every field optional; the server fills the defaults). */
export type AuditLogQuery = Partial<z.output<typeof auditLogQuerySchema>>;

export const AUDIT_EXPORT_MESSAGES = {
  datesRequired: 'Choose both a start date and an end date to download the audit log.',
  endBeforeStart: 'The end date must be on or after the start date.',
} as const;

/** GET /api/audit/export: both dates are required (the Download button is enabled only with both). */
export const auditExportQuerySchema = z.object({
  start_date: optionalDate,
  end_date: optionalDate,
  tz,
});

export const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: z.string().nullable(),
  action: z.string(),
  details: z.string().nullable(),
  screen: z.string().nullable(),
  timestamp: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = pageOf(auditEntrySchema);
export type AuditPage = z.infer<typeof auditPageSchema>;

/** 'approve user' -> 'Approve user': the Action column shows actions capitalised. */
export function capitaliseAction(action: string): string {
  return action.charAt(0).toUpperCase() + action.slice(1);
}
