import { and, eq, lte, sql } from "drizzle-orm";
import { subscriptionItems, subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { cadenceOf, monthlySubtotalCents } from "@core/delivery-cadence";

type PricedSubscription = Pick<typeof subscriptions.$inferSelect, "id" | "deliveryCadence">;

/** The monthly subtotal of a subscription's items at their current prices: one delivery's × the cadence's deliveries a month (decision 0097). */
export async function itemsSubtotal(tx: DatabaseOrTransaction, subscription: PricedSubscription): Promise<number> {
  const [row] = await tx
    .select({ subtotal: sql<string>`coalesce(sum(${subscriptionItems.unitPriceCents} * ${subscriptionItems.quantity}), 0)`.mapWith(Number) })
    .from(subscriptionItems)
    .where(eq(subscriptionItems.subscriptionId, subscription.id));
  return monthlySubtotalCents(Number(row?.subtotal ?? 0), cadenceOf(subscription.deliveryCadence));
}

/**
 * When a period is settled and `nextPeriod` becomes the one billed next, prices parked for it
 * take effect; answers the new monthly subtotal, or null when nothing was parked.
 */
export async function applyPendingItemPrices(tx: DatabaseOrTransaction, subscription: PricedSubscription, nextPeriod: number): Promise<number | null> {
  const applied = await tx
    .update(subscriptionItems)
    .set({ unitPriceCents: sql`${subscriptionItems.pendingUnitPriceCents}`, pendingUnitPriceCents: null, pendingFromPeriod: null })
    .where(and(eq(subscriptionItems.subscriptionId, subscription.id), lte(subscriptionItems.pendingFromPeriod, nextPeriod)))
    .returning({ id: subscriptionItems.id });
  if (applied.length === 0) return null;
  const baseAmountCents = await itemsSubtotal(tx, subscription);
  await tx.update(subscriptions).set({ baseAmountCents }).where(eq(subscriptions.id, subscription.id));
  return baseAmountCents;
}
