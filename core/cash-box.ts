import { formatSoles } from "./money";

/**
 * A rendición against the cash a driver collected (decision 0060): it squares, or cash is missing,
 * or there is more than collected. The caja screen and the driver's phone say it the same way.
 */
export type HandoverBalance = { kind: "cuadra" } | { kind: "falta" | "sobra"; cents: number };

export function handoverBalance(countedCents: number, dueCents: number): HandoverBalance {
  if (countedCents === dueCents) return { kind: "cuadra" };
  return countedCents < dueCents ? { kind: "falta", cents: dueCents - countedCents } : { kind: "sobra", cents: countedCents - dueCents };
}

export function handoverBalanceLabel(balance: HandoverBalance): string {
  if (balance.kind === "cuadra") return "Cuadra";
  return `${balance.kind === "falta" ? "Falta" : "Sobra"} ${formatSoles(balance.cents)}`;
}

/** How the driver took the money at the door, as staff read it. */
export function doorMethodLabel(method: string): string {
  return method === "yape" ? "Yape" : "Efectivo";
}
