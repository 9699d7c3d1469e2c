import type { Readable } from 'node:stream';
import {
  inclusiveDayRange,
  LOGIN_ACTIVITY_CSV_COLUMNS,
  LOGIN_ACTIVITY_CSV_FILENAME,
  LOGIN_ACTIVITY_XLSX_FILENAME,
  neutraliseSpreadsheetCell,
  SPRAY_ACCOUNTS,
  SPRAY_WINDOW_MS,
  type SprayingAddress,
  startOfLocalDay,
  type LoginActivityPage,
  type LoginActivityStats,
  type loginActivityFilterSchema,
  type loginActivityQuerySchema,
} from '@tradecraft/shared';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { spreadsheetStream, type SpreadsheetCell, type SpreadsheetFormat } from '../../plugins/downloads';
import { recordAuditAlone } from '../audit/audit.service';
import {
  listLoginEvents,
  loginEventBatches,
  loginEventCounts,
  sprayingAddresses,
  type LoginEventFilters,
} from './activity.repository';

// Sign-in writes its events through here (auth), never through activity.repository.
export { countUnknownEmailFailures, distinctFailedAccountsFrom, recordLoginEvent } from './activity.repository';

/** Addresses that failed sign-ins on several accounts in the spraying window; throttled ones at the limit. */
export async function passwordSprayingAddresses(db: Db): Promise<SprayingAddress[]> {
  const since = new Date(Date.now() - SPRAY_WINDOW_MS).toISOString();
  const rows = await sprayingAddresses(db, since, Math.min(3, SPRAY_ACCOUNTS));
  return rows.map((row) => ({
    ip: row.ip ?? '',
    accounts: Number(row.accounts),
    failures: Number(row.failures),
    lastAt: String(row.last_at),
    throttled: Number(row.accounts) >= SPRAY_ACCOUNTS,
  }));
}

type FilterQuery = z.output<typeof loginActivityFilterSchema>;

/** The request's filters in SQL terms: date inputs are whole days in the caller's time zone. */
export function toLoginEventFilters(query: FilterQuery): LoginEventFilters {
  const { fromIso, toIsoExclusive } = inclusiveDayRange(query.from, query.to, query.tz);
  return { search: query.search, event: query.event, fromIso, toIsoExclusive };
}

export async function loginActivityPage(
  db: Db,
  query: z.output<typeof loginActivityQuerySchema>,
): Promise<LoginActivityPage> {
  const { rows, total, totalIsLowerBound = false } = await listLoginEvents(db, toLoginEventFilters(query), query);
  return {
    items: rows.map((row) => ({ id: row.id, email: row.email, role: row.role, event: row.event, timestamp: row.at })),
    total,
    totalIsLowerBound,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export function loginActivityStats(db: Db, timeZone: string): Promise<LoginActivityStats> {
  return loginEventCounts(db, startOfLocalDay(new Date(), timeZone).toISOString());
}

function describeFilters(query: FilterQuery): string {
  const parts = [
    query.search ? `email contains "${query.search}"` : null,
    query.event ? `event ${query.event}` : null,
    query.from ? `from ${query.from}` : null,
    query.to ? `to ${query.to}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'all events';
}

export const LOGIN_ACTIVITY_FILENAMES: Record<SpreadsheetFormat, string> = {
  csv: LOGIN_ACTIVITY_CSV_FILENAME,
  xlsx: LOGIN_ACTIVITY_XLSX_FILENAME,
};

/**
 * user_login_logs.csv or .xlsx of every event matching the filters, newest first, streamed batch by batch so
 * a million rows never sit in memory. Cells go through the shared formula neutraliser. The export is audited.
 */
export async function exportLoginActivity(
  db: Db,
  actor: User,
  query: FilterQuery,
  format: SpreadsheetFormat,
): Promise<Readable> {
  await recordAuditAlone(db, {
    actor: actor.email,
    action: 'export login activity',
    details: `Downloaded ${LOGIN_ACTIVITY_FILENAMES[format]} (${describeFilters(query)})`,
    screen: 'User Monitoring',
  });
  const filters = toLoginEventFilters(query);
  async function* batches(): AsyncGenerator<SpreadsheetCell[][]> {
    for await (const batch of loginEventBatches(db, filters)) {
      yield batch.map((row) => [
        neutraliseSpreadsheetCell(row.email),
        neutraliseSpreadsheetCell(row.role),
        neutraliseSpreadsheetCell(row.event),
        neutraliseSpreadsheetCell(row.at),
      ]);
    }
  }
  return spreadsheetStream(format, {
    sheetName: 'Sign-in activity',
    columns: LOGIN_ACTIVITY_CSV_COLUMNS.map((header) => ({ header, width: header === 'Email' ? 36 : 24 })),
    batches: batches(),
  });
}
