import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sends `body` as a file the browser saves under `filename`; exports are never cached (they hold personal data). */
export function sendAttachment(reply: FastifyReply, filename: string, contentType: string, body: unknown): FastifyReply {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

/**
 * A CSV streamed batch by batch (header row first, CRLF line ends), so an export of a million rows never sits
 * in memory. `cells` must neutralise spreadsheet formulas itself (neutraliseSpreadsheetCell).
 */
export function csvStream<Row>(header: readonly string[], batches: AsyncIterable<Row[]>, cells: (row: Row) => unknown[]): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield `${Papa.unparse([[...header]])}\r\n`;
    for await (const batch of batches) yield `${Papa.unparse(batch.map(cells))}\r\n`;
  }
  return Readable.from(chunks());
}
