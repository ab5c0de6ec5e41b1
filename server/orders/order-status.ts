/**
 * Order status machine (decisions.md, Orders): statuses only move forward along these edges.
 * pending → payment_created → paid → processing → shipped → delivered; pending/payment_created →
 * failed or cancelled; paid/processing → cancelled → refunded; delivered → refunded.
 */
export const orderStatuses = ["pending", "payment_created", "paid", "processing", "shipped", "delivered", "failed", "cancelled", "refunded"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

const allowed: Record<OrderStatus, OrderStatus[]> = {
  pending: ["payment_created", "paid", "failed", "cancelled"],
  payment_created: ["paid", "failed", "cancelled"],
  paid: ["processing", "cancelled"],
  processing: ["shipped", "cancelled"],
  shipped: ["delivered"],
  delivered: ["refunded"],
  failed: [],
  cancelled: ["refunded"],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return allowed[from].includes(to);
}

export { orderStatusLabel, orderStatusLabels } from "~/lib/order-labels";

export class InvalidOrderTransitionError extends Error {
  override name = "InvalidOrderTransitionError";
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`Order status cannot move from ${from} to ${to}`);
  }
}
