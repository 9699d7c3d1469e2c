import { PassThrough, type Readable } from 'node:stream';
import { neutraliseSpreadsheetCell, zoneOffsetMinutes } from '@tradecraft/shared';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/database';
import { auditBatches, type AuditFilters } from './audit.repository';

export const AUDIT_EXPORT_FILENAME = 'audit_logs.xlsx';

/**
 * audit_logs.xlsx, written row by row with exceljs's streaming writer: a header row, then one row per entry
 * in the range, oldest first. Timestamps are real Excel dates in the caller's time zone (named in the
 * header, since Excel dates carry none; each at its own offset, so daylight saving time is followed). Text cells go through the shared formula neutraliser.
 */
export function auditWorkbook(db: Db, filters: AuditFilters, timeZone: string): Readable {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Audit log');
  sheet.columns = [
    { header: 'Actor', key: 'actor', width: 32 },
    { header: 'Action', key: 'action', width: 22 },
    { header: 'Details', key: 'details', width: 70 },
    { header: 'Screen', key: 'screen', width: 22 },
    { header: `Timestamp (${timeZone})`, key: 'timestamp', width: 22, style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  const write = async () => {
    for await (const batch of auditBatches(db, filters)) {
      for (const row of batch) {
        sheet
          .addRow({
            actor: neutraliseSpreadsheetCell(row.actor),
            action: neutraliseSpreadsheetCell(row.action),
            details: neutraliseSpreadsheetCell(row.details),
            screen: neutraliseSpreadsheetCell(row.screen),
            // Excel stores wall-clock time; shift the UTC instant to the caller's clock.
            timestamp: new Date(Date.parse(row.at) + zoneOffsetMinutes(new Date(row.at), timeZone) * 60_000),
          })
          .commit();
      }
      if (output.destroyed) return; // the admin cancelled the download
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}
