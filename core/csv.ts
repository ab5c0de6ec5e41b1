/** A figure the server computed (not text anyone typed): written as is, even when negative. */
export interface CsvAmount {
  readonly amount: string;
}

/** Céntimos as soles with two decimals and a point (`-10.00`), as the staff exports write amounts. */
export function csvSoles(cents: number): CsvAmount {
  return { amount: (cents / 100).toFixed(2) };
}

/** What makes a spreadsheet run a cell as a formula: its first character. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180). A text that a spreadsheet would run as a formula (it begins with
 * = + - or @) gets a leading apostrophe, so an order placed with a name like `=HYPERLINK(…)`
 * stays text in Excel (OWASP "CSV injection"). The guard applies to every part after a comma, a
 * semicolon or a line break too (decision 0071): a spreadsheet in a Spanish locale splits the
 * line on `;` and does not honour a quote that does not open its field, so `Calle 1;=1+1` would
 * otherwise end as a formula cell there. A cell with a separator, a quote or a line break is
 * quoted. An amount of ours (`csvSoles`) is never text a customer typed, so a negative one (a
 * day's net revenue after a refund) stays a number.
 */
export function csvField(value: string | CsvAmount): string {
  if (typeof value !== "string") return value.amount;
  const safe = value
    .split(/([,;\r\n])/)
    .map((part, index) => (index % 2 === 0 && FORMULA_START.test(part) ? `'${part}` : part))
    .join("");
  return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Comma-separated, CRLF-ended: the staff exports' one format (/admin/pedidos/exportar, /admin/metricas/exportar). */
export function csvLine(values: (string | CsvAmount)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** Starts every staff export so Excel reads the accents as UTF-8. */
export const CSV_BOM = "\uFEFF";
