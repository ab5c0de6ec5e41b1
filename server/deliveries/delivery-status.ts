/**
 * decisions.md, Orders, deliveries: pending → preparing → scheduled → shipped → in_transit →
 * delivered; any open state → rescheduled → scheduled; failed → rescheduled; cancelled is final.
 * A delivery fails only on the road (the driver's "No se pudo entregar").
 */
export const DELIVERY_STATUSES = ["pending", "preparing", "scheduled", "shipped", "in_transit", "delivered", "rescheduled", "failed", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The forward path; a move further along it passes through (and records) each step between. */
export const DELIVERY_MAIN_PATH: readonly DeliveryStatus[] = ["pending", "preparing", "scheduled", "shipped", "in_transit", "delivered"];

const OPEN: readonly DeliveryStatus[] = ["pending", "preparing", "scheduled", "shipped", "in_transit"];

/**
 * Statuses in which a delivery still holds a place in its day's capacity and can be acted on.
 * Spelled out again in migration 0049's counting triggers (decision 0102): a change here needs a
 * migration that replaces them and recounts `delivery_slots.open_count`.
 */
export const OPEN_DELIVERY_STATUSES: readonly DeliveryStatus[] = [...OPEN, "rescheduled", "failed"];

export function isDeliveryStatus(value: string): value is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** The steps from `from` to `to`, `to` included; null when the machine does not allow the move. */
export function deliveryPath(from: DeliveryStatus, to: DeliveryStatus): DeliveryStatus[] | null {
  if (from === to) return [];
  const fromIndex = DELIVERY_MAIN_PATH.indexOf(from);
  const toIndex = DELIVERY_MAIN_PATH.indexOf(to);
  if (fromIndex >= 0 && toIndex > fromIndex) return DELIVERY_MAIN_PATH.slice(fromIndex + 1, toIndex + 1);
  if (to === "rescheduled") return OPEN.includes(from) || from === "failed" ? ["rescheduled"] : null;
  if (from === "rescheduled" && (to === "scheduled" || to === "cancelled")) return [to];
  if (to === "failed") return from === "shipped" || from === "in_transit" ? ["failed"] : null;
  if (to === "cancelled") return OPEN.includes(from) || from === "failed" ? ["cancelled"] : null;
  return null;
}

export class InvalidDeliveryTransitionError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`Delivery cannot move from ${from} to ${to}`);
  }
}
