import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import { districtsToJoin } from "../content/index.server";
import { deliveries, invoices, orders, subscriptions, users } from "../db/schema";
import { profileFromRow, type Profile } from "./profile";

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

/**
 * Spec §2 Dashboard: the profile, the four stat cards, the 5 latest orders, 3 upcoming deliveries
 * and unpaid invoices, in ONE statement (issue 13): each statement costs the embedded database
 * milliseconds of glue whatever its work, and the eight separate reads this replaced made the
 * dashboard the most expensive signed-in page (bench/page-cost.mjs). Null when the user is gone.
 */
export async function getDashboard(db: Database, userId: string, now: Date): Promise<{ profile: Profile; summary: DashboardSummary } | null> {
  const today = limaToday(now);
  const own = eq(orders.userId, users.id);
  const upcoming = and(own, inArray(deliveries.status, UPCOMING_DELIVERY_STATUSES), gte(deliveries.deliveryDate, today));
  const [row] = await db
    .select({
      user: users,
      districtName: districtsToJoin.name,
      orderCount: sql<number>`(select count(*) from ${orders} where ${own})`.mapWith(Number),
      deliveryCount: sql<number>`(select count(*) from ${deliveries} inner join ${orders} on ${orders.id} = ${deliveries.orderId} where ${own})`.mapWith(
        Number,
      ),
      upcomingDeliveryCount:
        sql<number>`(select count(*) from ${deliveries} inner join ${orders} on ${orders.id} = ${deliveries.orderId} where ${upcoming})`.mapWith(Number),
      pendingInvoiceCount: sql<number>`(select count(*) from ${invoices} inner join ${orders} on ${orders.id} = ${invoices.orderId} where ${and(
        own,
        eq(invoices.status, "pending"),
      )})`.mapWith(Number),
      // Rows travel as one JSON value each (json_agg keeps the inner query's order).
      recentOrders: sql<RecentOrderJson[]>`(select coalesce(json_agg(recent), '[]'::json) from (
        select ${orders.id} as "id", ${orders.orderNumber} as "orderNumber", ${orders.createdAt} as "createdAt",
          ${orders.orderType} as "orderType", ${orders.status} as "status", ${orders.totalCents} as "totalCents"
        from ${orders} where ${own} order by ${orders.createdAt} desc limit 5) recent)`,
      upcomingDeliveries: sql<DashboardSummary["upcomingDeliveries"]>`(select coalesce(json_agg(next), '[]'::json) from (
        select ${deliveries.id} as "id", ${deliveries.deliveryNumber} as "deliveryNumber", ${deliveries.deliveryDate} as "deliveryDate",
          ${deliveries.deliveryWindow} as "deliveryWindow", ${deliveries.status} as "status"
        from ${deliveries} inner join ${orders} on ${orders.id} = ${deliveries.orderId}
        where ${upcoming} order by ${deliveries.deliveryDate} asc limit 3) next)`,
      subscription: sql<DashboardSummary["subscription"]>`(select json_build_object('id', ${subscriptions.id}, 'status', ${subscriptions.status},
          'frequency', ${subscriptions.frequency}, 'nextDeliveryDate', ${subscriptions.nextDeliveryDate})
        from ${subscriptions}
        where ${and(eq(subscriptions.userId, users.id), inArray(subscriptions.status, ["active", "paused", "past_due"]))}
        order by ${subscriptions.createdAt} desc limit 1)`,
    })
    .from(users)
    .leftJoin(districtsToJoin, eq(districtsToJoin.id, users.districtId))
    .where(eq(users.id, userId));
  if (!row) return null;
  return {
    profile: profileFromRow(row),
    summary: {
      orderCount: row.orderCount,
      deliveryCount: row.deliveryCount,
      upcomingDeliveryCount: row.upcomingDeliveryCount,
      pendingInvoiceCount: row.pendingInvoiceCount,
      subscription: row.subscription ?? null,
      // JSON carries timestamps as text with PostgreSQL's offset; the page wants ISO instants.
      recentOrders: row.recentOrders.map((order) => ({ ...order, createdAt: new Date(order.createdAt).toISOString() })),
      upcomingDeliveries: row.upcomingDeliveries,
    },
  };
}

type RecentOrderJson = DashboardSummary["recentOrders"][number];
