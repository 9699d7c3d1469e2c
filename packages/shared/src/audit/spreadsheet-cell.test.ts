import { describe, expect, it } from 'vitest';
import { neutraliseSpreadsheetCell } from './spreadsheet-cell';

describe('neutraliseSpreadsheetCell', () => {
  it('prefixes a quote to text a spreadsheet would run as a formula', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutraliseSpreadsheetCell(text)).toBe(`'${text}`);
    }
  });

  it('leaves other text alone and turns a missing value into an empty cell', () => {
    expect(neutraliseSpreadsheetCell('ana@example.com')).toBe('ana@example.com');
    expect(neutraliseSpreadsheetCell('a=b')).toBe('a=b');
    expect(neutraliseSpreadsheetCell(null)).toBe('');
    expect(neutraliseSpreadsheetCell(undefined)).toBe('');
  });
});
