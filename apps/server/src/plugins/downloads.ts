import { PassThrough, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';
import { lazyModule } from './lazy-module';

const excel = lazyModule(() => import('exceljs'));

export type SpreadsheetFormat = 'csv' | 'xlsx';

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const SPREADSHEET_MEDIA_TYPES: Record<SpreadsheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: XLSX_MEDIA_TYPE,
};

/** A cell as the feature computed it: text already through the formula neutraliser, or a date for Excel. */
export type SpreadsheetCell = string | Date;

export interface SpreadsheetColumn {
  header: string;
  /** XLSX column width in characters. */
  width?: number;
  /** XLSX number format, for date columns. */
  numFmt?: string;
}

export interface Spreadsheet {
  /** The XLSX sheet's name. */
  sheetName: string;
  columns: SpreadsheetColumn[];
  /** Rows batch by batch, as a repository streams them, so no export ever holds every row. */
  batches: AsyncIterable<SpreadsheetCell[][]>;
}

/**
 * The same rows as a CSV (UTF-8 with a byte-order mark, CRLF line ends) or an XLSX workbook, streamed batch by
 * batch (from keysetBatches), so an export of a million rows never sits in memory: the one way every export is
 * written. Text cells must already be through neutraliseSpreadsheetCell.
 */
export function spreadsheetStream(format: SpreadsheetFormat, spreadsheet: Spreadsheet): Readable {
  return format === 'csv' ? csvStream(spreadsheet) : xlsxStream(spreadsheet);
}

function csvStream({ columns, batches }: Spreadsheet): Readable {
  async function* chunks(): AsyncGenerator<string> {
    // The byte-order mark makes Excel on Windows read UTF-8; without it, non-ASCII names come out garbled.
    yield `\uFEFF${Papa.unparse([columns.map((column) => column.header)])}\r\n`;
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      yield `${Papa.unparse(batch.map((row) => row.map((cell) => (cell instanceof Date ? cell.toISOString() : cell))))}\r\n`;
    }
  }
  return Readable.from(chunks());
}

/** Written row by row with exceljs's streaming writer; a bold header row, then the batches. */
function xlsxStream({ sheetName, columns, batches }: Spreadsheet): Readable {
  const output = new PassThrough();
  const write = async () => {
    const { default: ExcelJS } = await excel();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(sheetName);
    sheet.columns = columns.map((column, index) => ({
      header: column.header,
      key: String(index),
      width: column.width ?? 20,
      ...(column.numFmt ? { style: { numFmt: column.numFmt } } : {}),
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const batch of batches) {
      for (const row of batch) sheet.addRow(row).commit();
      if (output.destroyed) return; // the download was cancelled
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

/** Sends a file the browser saves under `filename`; exports are never cached (they hold personal data). */
export function sendAttachment(reply: FastifyReply, file: { mediaType: string; filename: string; body: Readable }) {
  return reply
    .header('content-type', file.mediaType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'no-store')
    .send(file.body);
}
