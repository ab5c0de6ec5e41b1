import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, subscriptions } from "../db/schema";

/** What the card page shows: the plan and the first charge, for the subscription's own customer only. */
export async function findSubscriptionAwaitingCard(db: Database, userId: string, subscriptionId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(subscriptionId)) return null;
  const [row] = await db
    .select({
      id: subscriptions.id,
      subscriptionNumber: subscriptions.subscriptionNumber,
      status: subscriptions.status,
      frequency: subscriptions.frequency,
      orderNumber: orders.orderNumber,
      orderStatus: orders.status,
      firstChargeCents: orders.totalCents,
      email: orders.customerEmail,
    })
    .from(subscriptions)
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId)));
  return row ?? null;
}
