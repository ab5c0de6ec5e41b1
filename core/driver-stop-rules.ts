/**
 * The driver's stop forms' rules that the phone checks before it keeps a tap (issue 26): the same
 * words as the server's schema (app/lib/driver-stop-schema.ts), without zod, whose weight the
 * driver app's first load cannot carry (decision 0079). The server checks everything again.
 */

/** Bidones a driver can leave or collect at one door: a small count, checked on the server. */
export const MAX_BIDONES_PER_STOP = 50;
export const RECEIVER_NAME_MISSING = "Ingresa el nombre de quien recibe";

export const bidonCountMessage = (label: string) => `${label}: ingresa un número entero de 0 o más`;
export const bidonLimitMessage = (label: string) => `${label}: como máximo ${MAX_BIDONES_PER_STOP}`;

export const BIDON_FIELDS = [
  ["fullBidonesLeft", "Bidones llenos dejados"],
  ["emptyBidonesCollected", "Bidones vacíos recogidos"],
] as const;

/** What the phone refuses to keep, by field; an empty object when the tap may be queued. */
export function driverStopFormProblems(fields: Record<string, string>): Record<string, string> {
  const problems: Record<string, string> = {};
  if (fields.intent !== "entregado") return problems;
  if (!(fields.receiverName ?? "").trim()) problems.receiverName = RECEIVER_NAME_MISSING;
  for (const [name, label] of BIDON_FIELDS) {
    const value = (fields[name] ?? "").trim() || "0";
    if (!/^\d+$/.test(value)) problems[name] = bidonCountMessage(label);
    else if (Number(value) > MAX_BIDONES_PER_STOP) problems[name] = bidonLimitMessage(label);
  }
  return problems;
}
