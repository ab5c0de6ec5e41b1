/**
 * Order status machine (decisions.md, Orders): statuses only move forward along these edges.
 * pending → payment_created → paid → processing → shipped → delivered; pending/payment_created →
 * failed or cancelled; paid/processing → cancelled → refunded; delivered → refunded; failed →
 * refunded (money that arrived for a declined order and was given back, decision 0026-late-payments-and-refunds).
 */
import type { OrderStatus } from "@core/order-labels";
export type { OrderStatus };

const allowed: Record<OrderStatus, OrderStatus[]> = {
  pending: ["payment_created", "paid", "failed", "cancelled"],
  payment_created: ["paid", "failed", "cancelled"],
  paid: ["processing", "cancelled"],
  processing: ["shipped", "cancelled"],
  shipped: ["delivered"],
  delivered: ["refunded"],
  failed: ["refunded"],
  cancelled: ["refunded"],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return allowed[from].includes(to);
}

/**
 * The one way back: an order that ended only because its payment did not arrive in time (or was
 * declined) is re-opened straight to paid when the money does arrive and the order can still be
 * honoured (decision 0026-late-payments-and-refunds). Only the late-settlement path asks for it.
 */
export function canReopenForLatePayment(from: OrderStatus, to: OrderStatus): boolean {
  return to === "paid" && (from === "cancelled" || from === "failed");
}

export { orderStatusLabel } from "@core/order-labels";

export class InvalidOrderTransitionError extends Error {
  override name = "InvalidOrderTransitionError";
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`Order status cannot move from ${from} to ${to}`);
  }
}
