import { z } from 'zod';
import { pageOf, pageQuerySchema, sortDirectionSchema } from '../paging/paging';
import { timeZoneSchema } from '../time/time-zone.schema';

export const LOGIN_EVENTS = [
  'login',
  'logout',
  'failed_login',
  'password_change',
  'second_factor_added',
  'second_factor_removed',
  'recovery_code_used',
  'failed_second_factor',
] as const;
export type LoginEventKind = (typeof LOGIN_EVENTS)[number];

export const LOGIN_ACTIVITY_SORT_COLUMNS = ['email', 'role', 'event', 'timestamp'] as const;
export type LoginActivitySortColumn = (typeof LOGIN_ACTIVITY_SORT_COLUMNS)[number];

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must look like 2026-11-21.');
const optionalDate = z.preprocess((value) => (value === '' ? undefined : value), isoDate.optional());
const tz = timeZoneSchema;

/** The filters shared by the page, the stats-free CSV export and the table. */
export const loginActivityFilterSchema = z.object({
  /** Case-insensitive "email contains". */
  search: z.string().trim().max(200).optional(),
  event: z.preprocess((value) => (value === '' ? undefined : value), z.enum(LOGIN_EVENTS).optional()),
  from: optionalDate,
  to: optionalDate,
  tz,
});

export const loginActivityQuerySchema = loginActivityFilterSchema.extend({
  ...pageQuerySchema.shape,
  sort: z.enum(LOGIN_ACTIVITY_SORT_COLUMNS).default('timestamp'),
  dir: sortDirectionSchema.default('desc'),
});
/** What a client may send (every field optional; the server fills the defaults). */
export type LoginActivityQuery = Partial<z.output<typeof loginActivityQuerySchema>>;

export const loginEventSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.string(),
  event: z.string(),
  timestamp: z.string(),
});
export type LoginEvent = z.infer<typeof loginEventSchema>;

export const loginActivityPageSchema = pageOf(loginEventSchema);
export type LoginActivityPage = z.infer<typeof loginActivityPageSchema>;

export const loginActivityStatsQuerySchema = z.object({ tz });

/** "Today" is the caller's day when tz is sent, otherwise the UTC day. */
export const loginActivityStatsSchema = z.object({
  total: z.number().int(),
  failedLogins: z.number().int(),
  loginsToday: z.number().int(),
  logoutsToday: z.number().int(),
});
export type LoginActivityStats = z.infer<typeof loginActivityStatsSchema>;

export const LOGIN_ACTIVITY_CSV_FILENAME = 'user_login_logs.csv';
export const LOGIN_ACTIVITY_XLSX_FILENAME = 'user_login_logs.xlsx';
export const LOGIN_ACTIVITY_CSV_COLUMNS = ['Email', 'Role', 'Event', 'Timestamp'] as const;

/** How an event reads in the table: 'failed_login' -> 'Failed login'. */
export function loginEventLabel(event: string): string {
  const words = event.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
