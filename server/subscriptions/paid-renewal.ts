import { eq } from "drizzle-orm";
import { orders, subscriptionEvents, subscriptionPeriods, subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { confirmPaidOrder } from "../payments/index.server";
import { advanceSubscription } from "./period-ledger";
import { firstOrderCustomer, insertPaidRenewalOrder, subscriptionLines } from "./renewal-orders";

/**
 * The charge went through: the renewal's order (paid, invoiced, confirmed by email as any settled
 * payment is), the period marked paid, the subscription moved to its next period. Guarded by the
 * period's status under its lock, so completing twice (a worker and the reconciler) changes nothing.
 *
 * Lock order (decision 0025): the subscription, then its period, then the rows it inserts, and
 * last the invoice series counter, which every renewal of every worker needs: it is taken just
 * before the commit so the others wait on it as briefly as possible.
 */
export async function completePaidPeriod(
  tx: DatabaseOrTransaction,
  subscriptionId: string,
  periodId: string,
  charge: { chargeId: string; provider: string; now: Date; siteUrl: string; brandName?: string },
): Promise<void> {
  // One statement locks the subscription and brings what its order copies: the first order's
  // customer fields and the subscription's lines (only the subscription row is locked).
  const [locked] = await tx
    .select({ subscription: subscriptions, customer: firstOrderCustomer, items: subscriptionLines })
    .from(subscriptions)
    .leftJoin(orders, eq(orders.id, subscriptions.orderId))
    .where(eq(subscriptions.id, subscriptionId))
    .for("update", { of: subscriptions });
  const [period] = await tx.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.id, periodId)).for("update");
  if (!locked || !period || period.status === "paid") return;
  const { subscription } = locked;
  const { order, lines } = await insertPaidRenewalOrder(tx, subscription, period, { customer: locked.customer!, items: locked.items }, charge);
  await tx
    .update(subscriptionPeriods)
    .set({ status: "paid", providerChargeId: charge.chargeId, orderId: order.id, lastError: null, updatedAt: charge.now })
    .where(eq(subscriptionPeriods.id, period.id));
  await advanceSubscription(tx, subscription, period, charge.now);
  await tx.insert(subscriptionEvents).values({
    subscriptionId: subscription.id,
    kind: "renewed",
    description: `Renovación del periodo ${period.periodNumber} cobrada`,
    actor: "system",
    details: { periodNumber: period.periodNumber, amountCents: period.amountCents, orderId: order.id },
    createdAt: charge.now,
  });
  await confirmPaidOrder(tx, order, lines, charge);
}
