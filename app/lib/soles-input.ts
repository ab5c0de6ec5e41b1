/**
 * An amount in soles as staff type it ("25.50", "25,50", "S/ 25.5", "1 200.00") to integer
 * céntimos, or null when it is not one. Never goes through floating point: "0.29" is 29 céntimos.
 */
export function parseSolesInput(value: string): number | null {
  const cleaned = value
    .trim()
    .replace(/^S\/\s*/i, "")
    .replace(/[\s\u00a0]/g, "");
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}
