/**
 * One CSV field (RFC 4180). A text that a spreadsheet would run as a formula (it begins with
 * = + - or @) gets a leading apostrophe, so an order placed with a name like `=HYPERLINK(…)`
 * stays text in Excel (OWASP "CSV injection"). A plain number (`-10.00`, a day's net revenue after a
 * refund) runs nothing and stays a number.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Comma-separated, CRLF-ended: the staff exports' one format (/admin/pedidos/exportar, /admin/metricas/exportar). */
export function csvLine(values: string[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** Starts every staff export so Excel reads the accents as UTF-8. */
export const CSV_BOM = "\uFEFF";
