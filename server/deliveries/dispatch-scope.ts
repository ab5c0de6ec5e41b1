import { sql, type SQL } from "drizzle-orm";
import { orders } from "../db/schema";
import type { DeliveryStatus } from "./delivery-status";

/**
 * Which orders' deliveries Despacho works on: paid ones (paid → delivered), and unpaid ones whose
 * customer holds a cash or Yape code (`payments.method` cash|yape, `status` pending), which the
 * driver collects at the door. A card order still at the payment page, or one that failed or was
 * cancelled, never goes out. Used by the day view, the route sheets and the bulk actions alike.
 */
export const dispatchableOrder: SQL = sql`(${orders.status} in ('paid', 'processing', 'shipped', 'delivered') or (${orders.status} in ('pending', 'payment_created') and exists (select 1 from payments p where p.order_id = ${orders.id} and p.method in ('cash', 'yape') and p.status = 'pending')))`;

/** What the driver collects at the door: the open cash/Yape code's amount of an unpaid order; null when it is paid. */
export const amountToCollect: SQL<number | null> = sql<
  number | null
>`case when ${orders.status} in ('pending', 'payment_created') then (select p.amount_cents from payments p where p.order_id = ${orders.id} and p.method in ('cash', 'yape') and p.status = 'pending' order by p.created_at desc limit 1) end`.mapWith(
  (value: unknown) => (value === null ? null : Number(value)),
);

/**
 * Deliveries that still go out (or are out) on their day: what the truck is loaded for. Delivered,
 * failed (back at the warehouse until rescheduled) and cancelled ones are not.
 */
export const TO_LOAD_STATUSES: readonly DeliveryStatus[] = ["pending", "preparing", "scheduled", "rescheduled", "shipped", "in_transit"];

/** Stops in route order: staff's own order first, then district, then window (mañana before tarde). */
export function compareStops(
  a: { routePosition: number | null; districtName: string; deliveryWindow: string; deliveryNumber: string },
  b: { routePosition: number | null; districtName: string; deliveryWindow: string; deliveryNumber: string },
): number {
  if (a.routePosition !== b.routePosition) {
    if (a.routePosition === null) return 1;
    if (b.routePosition === null) return -1;
    return a.routePosition - b.routePosition;
  }
  return (
    a.districtName.localeCompare(b.districtName, "es") ||
    windowRank(a.deliveryWindow) - windowRank(b.deliveryWindow) ||
    a.deliveryNumber.localeCompare(b.deliveryNumber)
  );
}

export function windowRank(window: string): number {
  return window === "manana" ? 0 : window === "tarde" ? 1 : 2;
}
