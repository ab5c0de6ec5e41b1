/** A figure the server computed (not text anyone typed): written as is, even when negative. */
export interface CsvAmount {
  readonly amount: string;
}

/** Céntimos as soles with two decimals and a point (`-10.00`), as the staff exports write amounts. */
export function csvSoles(cents: number): CsvAmount {
  return { amount: (cents / 100).toFixed(2) };
}

/**
 * One CSV field (RFC 4180). A text that a spreadsheet would run as a formula (it begins with
 * = + - or @) gets a leading apostrophe, so an order placed with a name like `=HYPERLINK(…)`
 * stays text in Excel (OWASP "CSV injection"). An amount of ours (`csvSoles`) is never text a
 * customer typed, so a negative one (a day's net revenue after a refund) stays a number.
 */
export function csvField(value: string | CsvAmount): string {
  if (typeof value !== "string") return value.amount;
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Comma-separated, CRLF-ended: the staff exports' one format (/admin/pedidos/exportar, /admin/metricas/exportar). */
export function csvLine(values: (string | CsvAmount)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** Starts every staff export so Excel reads the accents as UTF-8. */
export const CSV_BOM = "\uFEFF";
