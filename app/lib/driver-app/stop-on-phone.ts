import type { DriverRouteStop } from "@server/deliveries/index.server";
import type { QueuedTap } from "./store";

const TAP_STATUS: Record<QueuedTap["intent"], string> = { en_camino: "in_transit", entregado: "delivered", no_entregado: "failed" };

/** Statuses after which the driver no longer goes to the stop: it leaves "Siguiente parada" for "Hechas". */
export const DONE_STATUSES = ["delivered", "failed", "cancelled"];

/**
 * The stop as the driver left it (issue 40): the server's word with the phone's pending taps on
 * top, so a tap made without signal moves the stop's status, its money and the customer's bidones
 * at once; `unsent` says the stop still waits to be sent ("por enviar").
 */
export interface StopOnPhone {
  status: string;
  proof: DriverRouteStop["proof"];
  amountToCollectCents: number;
  /** Collected at this door by a tap not yet sent: what, and how. */
  collectedUnsent: { cents: number; method: "cash" | "yape" } | null;
  bidonBalance: number;
  unsent: boolean;
}

export function stopOnPhone(stop: DriverRouteStop, taps: QueuedTap[]): StopOnPhone {
  let { status, proof, amountToCollectCents, bidonBalance } = stop;
  let collectedUnsent: StopOnPhone["collectedUnsent"] = null;
  let unsent = false;
  for (const tap of taps) {
    if (tap.state !== "pending") continue;
    unsent = true;
    status = TAP_STATUS[tap.intent];
    if (tap.intent === "entregado") {
      const full = Number(tap.fields.fullBidonesLeft || 0);
      const empty = Number(tap.fields.emptyBidonesCollected || 0);
      proof = {
        outcome: "delivered",
        receiverName: tap.fields.receiverName?.trim() ?? "",
        fullBidonesLeft: full,
        emptyBidonesCollected: empty,
        failureReason: null,
        note: null,
      };
      // The server's balance is what the customer held before this stop; the tap's bidones move it as the ledger will.
      bidonBalance = Math.max(0, bidonBalance + full - empty);
      const method = tap.fields.collected;
      if (amountToCollectCents > 0 && (method === "cash" || method === "yape")) {
        collectedUnsent = { cents: amountToCollectCents, method };
        amountToCollectCents = 0;
      }
    }
    if (tap.intent === "no_entregado")
      proof = {
        outcome: "failed",
        receiverName: null,
        fullBidonesLeft: null,
        emptyBidonesCollected: null,
        failureReason: tap.fields.reason ?? "otro",
        note: tap.fields.note?.trim() || null,
      };
  }
  return { status, proof, amountToCollectCents, collectedUnsent, bidonBalance, unsent };
}

/** Money collected by taps still on the phone, by method: added to "Efectivo por rendir" at once. */
export function collectedOnPhone(stops: StopOnPhone[]): { cashCents: number; yapeCents: number } {
  let cashCents = 0;
  let yapeCents = 0;
  for (const stop of stops) {
    if (stop.collectedUnsent?.method === "cash") cashCents += stop.collectedUnsent.cents;
    if (stop.collectedUnsent?.method === "yape") yapeCents += stop.collectedUnsent.cents;
  }
  return { cashCents, yapeCents };
}
