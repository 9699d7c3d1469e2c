import type { Readable } from 'node:stream';
import { neutraliseSpreadsheetCell } from '@tradecraft/shared';
import type { Db } from '../../db/database';
import { spreadsheetStream, type SpreadsheetCell } from '../../plugins/spreadsheet-export';
import { auditBatches, type AuditFilters } from './audit.repository';

export const AUDIT_EXPORT_FILENAME = 'audit_logs.xlsx';

/** 'UTC', 'UTC+02:00', 'UTC-05:30' for a Date#getTimezoneOffset() value. */
function zoneLabel(tzOffsetMinutes: number): string {
  if (tzOffsetMinutes === 0) return 'UTC';
  const east = -tzOffsetMinutes;
  const abs = Math.abs(east);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `UTC${east > 0 ? '+' : '-'}${hhmm}`;
}

/**
 * audit_logs.xlsx: a header row, then one row per entry in the range, oldest first. Timestamps are real Excel
 * dates in the caller's time zone (named in the header, since Excel dates carry none). Text cells go through
 * the shared formula neutraliser.
 */
export function auditWorkbook(db: Db, filters: AuditFilters, tzOffsetMinutes: number): Readable {
  async function* batches(): AsyncGenerator<SpreadsheetCell[][]> {
    for await (const batch of auditBatches(db, filters)) {
      yield batch.map((row) => [
        neutraliseSpreadsheetCell(row.actor),
        neutraliseSpreadsheetCell(row.action),
        neutraliseSpreadsheetCell(row.details),
        neutraliseSpreadsheetCell(row.screen),
        // Excel stores wall-clock time; shift the UTC instant to the caller's clock.
        new Date(Date.parse(row.at) - tzOffsetMinutes * 60_000),
      ]);
    }
  }
  return spreadsheetStream('xlsx', {
    sheetName: 'Audit log',
    columns: [
      { header: 'Actor', width: 32 },
      { header: 'Action', width: 22 },
      { header: 'Details', width: 70 },
      { header: 'Screen', width: 22 },
      { header: `Timestamp (${zoneLabel(tzOffsetMinutes)})`, width: 22, numFmt: 'yyyy-mm-dd hh:mm:ss' },
    ],
    batches: batches(),
  });
}
