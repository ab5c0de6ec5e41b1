/**
 * Money is integer céntimos everywhere; this is the one place it becomes text (spec §9: 'S/' with
 * 2 decimals, es-PE grouping: S/ 1,234.50). Written out rather than with Intl.NumberFormat: the
 * first es-PE number format a page builds loads the browser's locale data, 60–90 ms of main thread
 * on a mid-range phone during start-up (bench/RESULTS.md, issue 26). tests/unit/money.test.ts
 * holds it to Intl's output.
 */
export function formatSoles(cents: number): string {
  const rounded = Math.round(Math.abs(cents));
  const whole = String(Math.floor(rounded / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = String(rounded % 100).padStart(2, "0");
  return `S/ ${cents < 0 && rounded > 0 ? "-" : ""}${whole}.${fraction}`;
}

/** Spec §9: a product with variants shows 'S/min - S/max' unless both are equal. */
export function formatPriceRange(minCents: number | null, maxCents: number | null): string | null {
  if (minCents === null) return maxCents === null ? null : formatSoles(maxCents);
  if (maxCents === null || maxCents === minCents) return formatSoles(minCents);
  return `${formatSoles(minCents)} - ${formatSoles(maxCents)}`;
}
