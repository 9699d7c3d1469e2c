// Formula injection: a spreadsheet program runs a cell that starts with one of these as a formula, so a
// crafted email or audit detail could run one on the admin's machine. Kept free of zod.
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text safe to put in a CSV or XLSX cell: a leading formula character is neutralised with a `'`. */
export function neutraliseSpreadsheetCell(value: string | null | undefined): string {
  const text = value ?? '';
  return FORMULA_START.test(text) ? `'${text}` : text;
}
