import { and, count, desc, eq, gte, inArray, asc } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import { deliveries, invoices, orders, subscriptions } from "../db/schema";

/** Spec §4: the statuses that count as upcoming (the deliveries screen also counts scheduled). */
export const UPCOMING_DELIVERY_STATUSES = ["pending", "preparing", "scheduled", "shipped", "in_transit"];

export interface DashboardSummary {
  orderCount: number;
  upcomingDeliveryCount: number;
  deliveryCount: number;
  pendingInvoiceCount: number;
  subscription: { id: string; status: string; frequency: string; nextDeliveryDate: string | null } | null;
  recentOrders: { id: string; orderNumber: string; createdAt: string; orderType: string; status: string; totalCents: number }[];
  upcomingDeliveries: { id: string; deliveryNumber: string; deliveryDate: string; deliveryWindow: string; status: string }[];
}

/** Spec §2 Dashboard: the four stat cards, the 5 latest orders, 3 upcoming deliveries, unpaid invoices. */
export async function getDashboardSummary(db: Database, userId: string, now: Date): Promise<DashboardSummary> {
  const today = limaToday(now);
  const own = eq(orders.userId, userId);
  const upcoming = and(own, inArray(deliveries.status, UPCOMING_DELIVERY_STATUSES), gte(deliveries.deliveryDate, today));
  const [orderCount, deliveryCount, upcomingCount, pendingInvoices, recentOrders, upcomingDeliveries, subscription] = await Promise.all([
    db.select({ n: count() }).from(orders).where(own),
    db.select({ n: count() }).from(deliveries).innerJoin(orders, eq(orders.id, deliveries.orderId)).where(own),
    db.select({ n: count() }).from(deliveries).innerJoin(orders, eq(orders.id, deliveries.orderId)).where(upcoming),
    db
      .select({ n: count() })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(and(own, eq(invoices.status, "pending"))),
    db
      .select({
        id: orders.id,
        orderNumber: orders.orderNumber,
        createdAt: orders.createdAt,
        orderType: orders.orderType,
        status: orders.status,
        totalCents: orders.totalCents,
      })
      .from(orders)
      .where(own)
      .orderBy(desc(orders.createdAt))
      .limit(5),
    db
      .select({
        id: deliveries.id,
        deliveryNumber: deliveries.deliveryNumber,
        deliveryDate: deliveries.deliveryDate,
        deliveryWindow: deliveries.deliveryWindow,
        status: deliveries.status,
      })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .where(upcoming)
      .orderBy(asc(deliveries.deliveryDate))
      .limit(3),
    db
      .select({ id: subscriptions.id, status: subscriptions.status, frequency: subscriptions.frequency, nextDeliveryDate: subscriptions.nextDeliveryDate })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ["active", "paused", "past_due"])))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1),
  ]);
  // bigint counts come back as strings from node-postgres (stack notes).
  const n = (rows: { n: number | string }[]) => Number(rows[0]?.n ?? 0);
  return {
    orderCount: n(orderCount),
    deliveryCount: n(deliveryCount),
    upcomingDeliveryCount: n(upcomingCount),
    pendingInvoiceCount: n(pendingInvoices),
    subscription: subscription[0] ?? null,
    recentOrders: recentOrders.map((order) => ({ ...order, createdAt: order.createdAt.toISOString() })),
    upcomingDeliveries,
  };
}
