/** Money is integer céntimos everywhere; this is the one place it becomes text (spec §9: 'S/' with 2 decimals). */
const solesFormatter = new Intl.NumberFormat("es-PE", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  useGrouping: true,
});

export function formatSoles(cents: number): string {
  return `S/ ${solesFormatter.format(cents / 100)}`;
}

/** Spec §9: a product with variants shows 'S/min - S/max' unless both are equal. */
export function formatPriceRange(minCents: number | null, maxCents: number | null): string | null {
  if (minCents === null) return maxCents === null ? null : formatSoles(maxCents);
  if (maxCents === null || maxCents === minCents) return formatSoles(minCents);
  return `${formatSoles(minCents)} - ${formatSoles(maxCents)}`;
}
