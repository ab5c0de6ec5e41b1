import { and, asc, desc, eq, lt, lte, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { clearRowFailures, recordRowFailure } from "../db/row-failures";
import { orders, paymentMethods, payments, subscriptionPeriods, subscriptions, users } from "../db/schema";
import { inTransaction } from "../db/transaction";
import type { CardProvider } from "../payments/index.server";
import { failAttempt } from "./period-ledger";
import { completePaidPeriod } from "./paid-renewal";
import { CHARGE_IN_FLIGHT_MS, finishActivation } from "./signup";

interface ReconcileOptions {
  now: Date;
  siteUrl: string;
  cardsFor: (provider: string) => CardProvider;
}

/**
 * Attempts left "charging" longer than a charge can take lost their answer (a crash, a timeout).
 * The provider is asked by the attempt's key: charged → completed as paid; never charged → the
 * period is due again and the next run charges it with a new key. Nothing is charged twice.
 */
export async function reconcileLostCharges(db: Database, options: ReconcileOptions): Promise<number> {
  const stale = await db
    .select({ period: subscriptionPeriods, subscription: subscriptions, method: paymentMethods, email: users.email })
    .from(subscriptionPeriods)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
    .innerJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(
      and(
        eq(subscriptionPeriods.status, "charging"),
        lt(subscriptionPeriods.updatedAt, new Date(options.now.getTime() - CHARGE_IN_FLIGHT_MS)),
        sql`${subscriptionPeriods.periodNumber} > 1`,
      ),
    );
  let reconciled = 0;
  for (const row of stale) {
    try {
      let found;
      try {
        found = await options.cardsFor(row.method.provider).findCharge({ chargeKey: row.period.chargeKey!, email: row.email, since: row.period.createdAt });
      } catch {
        continue; // The provider cannot say now: ask again on the next run.
      }
      if (found?.paid) {
        await inTransaction(db, (tx) =>
          completePaidPeriod(tx, row.subscription.id, row.period.id, {
            chargeId: found.chargeId,
            provider: row.method.provider,
            now: options.now,
            siteUrl: options.siteUrl,
          }),
        );
      } else if (found) {
        await inTransaction(db, async (tx) => {
          const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, row.subscription.id)).for("update");
          await failAttempt(tx, locked!, row.period, "Cobro rechazado", options.now, options.siteUrl);
        });
      } else {
        // Never reached the provider: due again, the attempt not counted against the customer.
        await db
          .update(subscriptionPeriods)
          .set({ status: "due", attempts: row.period.attempts - 1, updatedAt: options.now })
          .where(and(eq(subscriptionPeriods.id, row.period.id), eq(subscriptionPeriods.status, "charging")));
      }
      reconciled += 1;
      // Settled: the charge's lost outcome (recorded by the renewal) and any earlier failure here are behind it.
      await clearRowFailures(db, "renewals", [row.subscription.id]);
      await clearRowFailures(db, "renewals: reconcile", [row.subscription.id]);
    } catch (error) {
      // One row that cannot be reconciled now never stops the others (decision 0025).
      await recordRowFailure(db, "renewals: reconcile", row.subscription.id, error, options.now);
    }
  }
  return reconciled + (await reconcileLostFirstCharges(db, options));
}

/**
 * The same for a sign-up whose card page died after the provider was called: charged → the
 * subscription is activated as the page would have; otherwise the customer may try again.
 */
async function reconcileLostFirstCharges(db: Database, options: ReconcileOptions): Promise<number> {
  const stale = await db
    .select({ period: subscriptionPeriods, subscription: subscriptions, email: users.email, order: orders })
    .from(subscriptionPeriods)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .where(
      and(
        eq(subscriptionPeriods.status, "charging"),
        eq(subscriptionPeriods.periodNumber, 1),
        lt(subscriptionPeriods.updatedAt, new Date(options.now.getTime() - CHARGE_IN_FLIGHT_MS)),
      ),
    );
  let reconciled = 0;
  for (const row of stale) {
    try {
      // The card saved for this attempt: the customer's newest one from before the attempt began.
      const [card] = await db
        .select()
        .from(paymentMethods)
        .where(and(eq(paymentMethods.userId, row.subscription.userId), lte(paymentMethods.createdAt, row.period.updatedAt)))
        .orderBy(desc(paymentMethods.createdAt))
        .limit(1);
      let found = null;
      if (card) {
        try {
          found = await options.cardsFor(card.provider).findCharge({ chargeKey: row.period.chargeKey!, email: row.email, since: row.period.createdAt });
        } catch {
          continue;
        }
      }
      const [payment] = await db.select({ id: payments.id }).from(payments).where(eq(payments.orderId, row.order.id)).orderBy(asc(payments.createdAt)).limit(1);
      if (found?.paid && card && payment) {
        await finishActivation(db, {
          subscription: row.subscription,
          orderId: row.order.id,
          firstDeliveryDate: row.order.deliveryDate,
          paymentId: payment.id,
          card: { id: card.id, provider: card.provider, brand: card.brand, last4: card.last4 },
          chargeId: found.chargeId,
          actor: "system",
          now: options.now,
          siteUrl: options.siteUrl,
        });
      } else {
        await db
          .update(subscriptionPeriods)
          .set({ status: "failed", lastError: found ? "Cobro rechazado" : "Intento interrumpido", updatedAt: options.now })
          .where(and(eq(subscriptionPeriods.id, row.period.id), eq(subscriptionPeriods.status, "charging")));
      }
      reconciled += 1;
      await clearRowFailures(db, "renewals: reconcile sign-up", [row.subscription.id]);
    } catch (error) {
      // One row that cannot be reconciled now never stops the others (decision 0025).
      await recordRowFailure(db, "renewals: reconcile sign-up", row.subscription.id, error, options.now);
    }
  }
  return reconciled;
}
