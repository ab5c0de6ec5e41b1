import { and, eq, lte, sql } from "drizzle-orm";
import { subscriptionItems, subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

/** The monthly subtotal of a subscription's items at their current prices. */
export async function itemsSubtotal(tx: DatabaseOrTransaction, subscriptionId: string): Promise<number> {
  const [row] = await tx
    .select({ subtotal: sql<string>`coalesce(sum(${subscriptionItems.unitPriceCents} * ${subscriptionItems.quantity}), 0)`.mapWith(Number) })
    .from(subscriptionItems)
    .where(eq(subscriptionItems.subscriptionId, subscriptionId));
  return Number(row?.subtotal ?? 0);
}

/**
 * When a period is settled and `nextPeriod` becomes the one billed next, prices parked for it
 * take effect; answers the new monthly subtotal, or null when nothing was parked.
 */
export async function applyPendingItemPrices(tx: DatabaseOrTransaction, subscription: { id: string }, nextPeriod: number): Promise<number | null> {
  const applied = await tx
    .update(subscriptionItems)
    .set({ unitPriceCents: sql`${subscriptionItems.pendingUnitPriceCents}`, pendingUnitPriceCents: null, pendingFromPeriod: null })
    .where(and(eq(subscriptionItems.subscriptionId, subscription.id), lte(subscriptionItems.pendingFromPeriod, nextPeriod)))
    .returning({ id: subscriptionItems.id });
  if (applied.length === 0) return null;
  const baseAmountCents = await itemsSubtotal(tx, subscription.id);
  await tx.update(subscriptions).set({ baseAmountCents }).where(eq(subscriptions.id, subscription.id));
  return baseAmountCents;
}
