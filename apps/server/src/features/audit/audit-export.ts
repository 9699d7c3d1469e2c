import type { Readable } from 'node:stream';
import { neutraliseSpreadsheetCell, zoneOffsetMinutes } from '@tradecraft/shared';
import type { Db } from '../../db/database';
import { spreadsheetStream, type SpreadsheetCell } from '../../plugins/downloads';
import { auditBatches, type AuditFilters } from './audit.repository';

export const AUDIT_EXPORT_FILENAME = 'audit_logs.xlsx';

/**
 * audit_logs.xlsx: a header row, then one row per entry in the range, oldest first. Timestamps are real Excel
 * dates in the caller's time zone (named in the header, since Excel dates carry none; each at its own offset, so
 * daylight saving time is followed). Text cells go through the shared formula neutraliser.
 */
export function auditWorkbook(db: Db, filters: AuditFilters, timeZone: string): Readable {
  async function* batches(): AsyncGenerator<SpreadsheetCell[][]> {
    for await (const batch of auditBatches(db, filters)) {
      yield batch.map((row) => [
        neutraliseSpreadsheetCell(row.actor),
        neutraliseSpreadsheetCell(row.action),
        neutraliseSpreadsheetCell(row.details),
        neutraliseSpreadsheetCell(row.screen),
        // Excel stores wall-clock time; shift the UTC instant to the caller's clock.
        new Date(Date.parse(row.at) + zoneOffsetMinutes(new Date(row.at), timeZone) * 60_000),
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
      { header: `Timestamp (${timeZone})`, width: 22, numFmt: 'yyyy-mm-dd hh:mm:ss' },
    ],
    batches: batches(),
  });
}
