import { and, asc, desc, eq, lt, lte, notInArray, sql } from "drizzle-orm";
import { addDays, limaToday } from "@core/lima-dates";
import { orderSummary } from "@core/pricing";
import { billingDateOfPeriod } from "@core/subscription-dates";
import type { Database } from "../db/client";
import {
  orderItems,
  orders,
  orderStatusChanges,
  paymentMethods,
  payments,
  subscriptionEvents,
  subscriptionItems,
  subscriptionPeriods,
  subscriptions,
  users,
} from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import type { CardProvider } from "../payments/index.server";
import { settlePaymentInTransaction } from "../payments/index.server";
import { notifySubscriber } from "./notify";
import { CHARGE_IN_FLIGHT_MS, finishActivation } from "./signup";
import { recordRowFailure, inRowSavepoint } from "../db/row-failures";
import { inTransaction, type Transaction } from "../db/transaction";

/** Issue 5: a failed renewal is retried 3 times, 3 days apart; after the last failure the subscription is paused as past due. */
export const RETRY_DAYS = 3;
export const MAX_ATTEMPTS = 4;

export interface RenewalOptions {
  now: Date;
  siteUrl: string;
  /** The provider that saved a card charges it (renewals never switch providers). */
  cardsFor: (provider: string) => CardProvider;
  batchSize?: number;
  /** Only this subscription (a customer's card update retrying its unpaid period at once). */
  onlySubscriptionId?: string;
}

export interface RenewalReport {
  charged: number;
  declined: number;
  pastDue: number;
  reconciled: number;
  unknown: number;
  /** Subscriptions whose renewal threw: recorded in job_row_failures and tried again next pass. */
  failed: number;
}

type Subscription = typeof subscriptions.$inferSelect;
type Period = typeof subscriptionPeriods.$inferSelect;

/**
 * Charges every due period of every active card subscription, exactly once (issue 5). A period is
 * a row unique per (subscription, number); its attempt key is written, row locked, before the
 * provider is called, so two workers, a job run twice or a crash between charge and write never
 * charge twice. Paused, past-due and cancelled subscriptions are never selected.
 */
export async function renewDueSubscriptions(db: Database, options: RenewalOptions): Promise<RenewalReport> {
  const report: RenewalReport = { charged: 0, declined: 0, pastDue: 0, reconciled: 0, unknown: 0, failed: 0 };
  if (!options.onlySubscriptionId) report.reconciled = await reconcileLostCharges(db, options);
  const today = limaToday(options.now);
  const batchSize = options.batchSize ?? 100;
  // Rows that failed in this pass are left for the next one, so the loop still ends (decision 0025).
  const failedThisPass = new Set<string>();
  // Each pass claims a batch; claimed periods leave the "due" set, so the loop ends.
  for (;;) {
    const { claims, repaired, failed } = await claimDuePeriods(db, today, batchSize, options.now, failedThisPass, options.onlySubscriptionId);
    report.failed += failed;
    if (claims.length === 0 && repaired === 0 && failed === 0) break;
    for (const claim of claims) {
      try {
        const outcome = await chargeClaim(db, claim, options);
        report[outcome] += 1;
      } catch (error) {
        // The charge's outcome could not be written: the period stays charging, and the
        // reconciler asks the provider by its key on a later pass. Nothing is charged twice.
        failedThisPass.add(claim.subscription.id);
        report.failed += 1;
        await recordRowFailure(db, "renewals", claim.subscription.id, error, options.now);
      }
    }
  }
  return report;
}

interface Claim {
  subscription: Subscription;
  period: Period;
  method: typeof paymentMethods.$inferSelect;
  email: string;
}

/**
 * One transaction: lock due subscriptions (SKIP LOCKED, so a second worker takes others), create
 * or pick up each one's current period, and mark an attempt as charging with its key.
 */
async function claimDuePeriods(
  db: Database,
  today: string,
  limit: number,
  now: Date,
  skip: Set<string>,
  onlySubscriptionId?: string,
): Promise<{ claims: Claim[]; repaired: number; failed: number }> {
  return inTransaction(
    db,
    async (tx) => {
      const due = await tx
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.status, "active"),
            eq(subscriptions.billingMethod, "card"),
            onlySubscriptionId ? eq(subscriptions.id, onlySubscriptionId) : undefined,
            skip.size > 0 ? notInArray(subscriptions.id, [...skip]) : undefined,
            lte(subscriptions.nextBillingDate, today),
            // A cancellation at period end: the period starting on or after the end is never charged.
            sql`(${subscriptions.endsOn} is null or ${subscriptions.endsOn} > ${subscriptions.nextBillingDate})`,
            // A period waiting for its retry date, or already charging, is not due today.
            sql`not exists (select 1 from ${subscriptionPeriods} p where p.subscription_id = ${subscriptions.id} and p.period_number = ${subscriptions.nextPeriodNumber}
                  and (p.status = 'charging' or (p.status = 'failed' and p.next_attempt_date > ${today})))`,
          ),
        )
        // The id breaks ties, so every worker meets the rows in one order (decision 0025).
        .orderBy(asc(subscriptions.nextBillingDate), asc(subscriptions.id))
        .limit(limit)
        // One customer's own retry waits for a lock another request holds for a moment; the job skips it.
        .for("update", onlySubscriptionId ? {} : { skipLocked: true });
      const claims: Claim[] = [];
      let repaired = 0;
      let failed = 0;
      for (const subscription of due) {
        const handled = await inRowSavepoint(tx, "renewals", subscription.id, now, async (row) => {
          const outcome = await claimOne(row, subscription, now);
          if (outcome === "repaired") repaired += 1;
          else if (outcome !== "skipped") claims.push(outcome);
        });
        if (!handled) {
          skip.add(subscription.id);
          failed += 1;
        }
      }
      return { claims, repaired, failed };
    },
    { label: "renewals: claim due periods" },
  );
}

/**
 * One locked subscription of the claim: its current period re-checked under the period's lock, then
 * either repaired (a pointer that lagged), failed (no usable card) or marked charging with its key.
 */
async function claimOne(tx: Transaction, subscription: Subscription, now: Date): Promise<Claim | "repaired" | "skipped"> {
  const period = await currentPeriod(tx, subscription, now);
  // Re-checked under the period's lock: a worker that waited for the subscription's lock must
  // not start a second attempt on a period another worker is already charging.
  if (period.status === "charging" || period.status === "awaiting_payment") return "skipped";
  if (period.status === "paid" || period.status === "skipped") {
    // The period was settled but the subscription's pointer lags (a crash): move it on.
    await advanceSubscription(tx, subscription, period, now);
    return "repaired";
  }
  const [method] = subscription.paymentMethodId ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, subscription.paymentMethodId)) : [];
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, subscription.userId));
  if (!method || method.revokedAt || !user) {
    await failAttempt(tx, subscription, { ...period, attempts: period.attempts + 1 }, "No hay una tarjeta registrada", now);
    return "repaired";
  }
  const attempts = period.attempts + 1;
  const chargeKey = `${subscription.id}:${period.periodNumber}:${attempts}`;
  const [charging] = await tx
    .update(subscriptionPeriods)
    .set({ status: "charging", attempts, chargeKey, updatedAt: now })
    .where(eq(subscriptionPeriods.id, period.id))
    .returning();
  return { subscription, period: charging!, method, email: user.email };
}

/** The ledger row of the subscription's next period, created on first sight. Frequency changes apply here. */
export async function currentPeriod(tx: DatabaseOrTransaction, subscription: Subscription, now: Date): Promise<Period> {
  const frequency = (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";
  const amountCents = orderSummary(subscription.baseAmountCents, "subscription", frequency).totalCents;
  await tx
    .insert(subscriptionPeriods)
    .values({
      subscriptionId: subscription.id,
      periodNumber: subscription.nextPeriodNumber,
      billingDate: subscription.nextBillingDate!,
      amountCents,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [period] = await tx
    .select()
    .from(subscriptionPeriods)
    .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber)))
    .for("update");
  return period!;
}

async function chargeClaim(db: Database, claim: Claim, options: RenewalOptions): Promise<"charged" | "declined" | "pastDue" | "unknown"> {
  const { subscription, period, method } = claim;
  let result;
  try {
    result = await options.cardsFor(method.provider).chargeCard({
      customerId: method.providerCustomerId,
      cardId: method.providerCardId,
      amountCents: period.amountCents,
      email: claim.email,
      chargeKey: period.chargeKey!,
      description: `Suscripción ${subscription.subscriptionNumber}, periodo ${period.periodNumber}`,
    });
  } catch (error) {
    result = { outcome: "unknown" as const, message: error instanceof Error ? error.message : String(error) };
  }
  if (result.outcome === "unknown") return "unknown"; // stays charging; reconciled on a later run
  if (result.outcome === "paid") {
    await inTransaction(db, (tx) =>
      completePaidPeriod(tx, subscription.id, period.id, { chargeId: result.chargeId, provider: method.provider, now: options.now, siteUrl: options.siteUrl }),
    );
    return "charged";
  }
  const pastDue = await inTransaction(db, async (tx) => {
    const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscription.id)).for("update");
    return failAttempt(tx, locked!, period, result.message, options.now, options.siteUrl);
  });
  return pastDue ? "pastDue" : "declined";
}

/**
 * The charge went through: the renewal's order (paid, invoiced, confirmed by email through the
 * same settlement as any payment), the period marked paid, the subscription moved to its next
 * period. Guarded by the period's status, so completing twice changes nothing.
 */
export async function completePaidPeriod(
  tx: DatabaseOrTransaction,
  subscriptionId: string,
  periodId: string,
  charge: { chargeId: string; provider: string; now: Date; siteUrl: string },
) {
  // Decision 0025: the subscription before its period, as the claim and self-service take them.
  const [subscription] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for("update");
  const [period] = await tx.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.id, periodId)).for("update");
  if (!period || period.status === "paid") return;
  const orderId = await createRenewalOrder(tx, subscription!, period, charge);
  await tx
    .update(subscriptionPeriods)
    .set({ status: "paid", providerChargeId: charge.chargeId, orderId, lastError: null, updatedAt: charge.now })
    .where(eq(subscriptionPeriods.id, period.id));
  await advanceSubscription(tx, subscription!, period, charge.now);
  await tx.insert(subscriptionEvents).values({
    subscriptionId: subscription!.id,
    kind: "renewed",
    description: `Renovación del periodo ${period.periodNumber} cobrada`,
    actor: "system",
    details: { periodNumber: period.periodNumber, amountCents: period.amountCents, orderId },
    createdAt: charge.now,
  });
}

/** The subscription's pointer moves past a settled (paid or skipped) period; a pending frequency change takes effect. */
export async function advanceSubscription(tx: DatabaseOrTransaction, subscription: Subscription, period: Period, now: Date) {
  if (subscription.nextPeriodNumber !== period.periodNumber) return;
  const frequency = (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";
  const startOfNext = billingDateOfNextPeriod(period.billingDate, frequency);
  await tx
    .update(subscriptions)
    .set({
      frequency,
      pendingFrequency: null,
      discountRateBasisPoints: frequency === "anual" ? 1500 : 500,
      amountCents: orderSummary(subscription.baseAmountCents, "subscription", frequency).totalCents,
      nextPeriodNumber: period.periodNumber + 1,
      nextBillingDate: startOfNext,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, subscription.id));
}

function billingDateOfNextPeriod(billingDate: string, frequency: "mensual" | "anual"): string {
  return billingDateOfPeriod(billingDate, frequency, 2);
}

async function createRenewalOrder(
  tx: DatabaseOrTransaction,
  subscription: Subscription,
  period: Period,
  charge: { chargeId: string; provider: string; now: Date; siteUrl: string },
): Promise<string> {
  const { orderId, paymentId } = await insertRenewalOrder(tx, subscription, period, {
    provider: charge.provider,
    method: "card",
    now: charge.now,
    expiresAt: null,
  });
  await settlePaymentInTransaction(tx, paymentId, {
    now: charge.now,
    method: "card",
    actor: "system",
    siteUrl: charge.siteUrl,
    providerReference: charge.chargeId,
  });
  return orderId;
}

/**
 * A period's order, pending with its payment attempt: paid at once by a card renewal, or by the
 * customer through the emailed link (payment_link billing).
 */
export async function insertRenewalOrder(
  tx: DatabaseOrTransaction,
  subscription: Subscription,
  period: Period,
  options: { provider: string; method: "card" | null; now: Date; expiresAt: Date | null },
): Promise<{ orderId: string; paymentId: string; orderNumber: string }> {
  const [first] = await tx.select().from(orders).where(eq(orders.id, subscription.orderId!));
  const items = await tx.select().from(subscriptionItems).where(eq(subscriptionItems.subscriptionId, subscription.id)).orderBy(asc(subscriptionItems.id));
  // The period was priced with the frequency in force when it began (a pending change included).
  const frequency = (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";
  const summary = orderSummary(subscription.baseAmountCents, "subscription", frequency);
  const [order] = await tx
    .insert(orders)
    .values({
      userId: subscription.userId,
      subscriptionId: subscription.id,
      status: "pending",
      orderType: "subscription",
      subscriptionFrequency: frequency,
      customerFirstName: first!.customerFirstName,
      customerLastName: first!.customerLastName,
      customerEmail: first!.customerEmail,
      customerPhone: first!.customerPhone,
      documentType: first!.documentType,
      documentNumber: first!.documentNumber,
      ruc: first!.ruc,
      businessName: first!.businessName,
      districtId: subscription.districtId,
      districtName: subscription.districtName,
      address: subscription.address,
      deliveryDate: subscription.nextDeliveryDate ?? period.billingDate,
      deliveryWindow: subscription.deliveryWindow,
      subtotalCents: summary.subtotalCents,
      discountCents: summary.discountCents,
      totalCents: period.amountCents,
      paymentProvider: options.provider,
      paymentMethod: options.method,
      expiresAt: options.expiresAt,
      createdAt: options.now,
      updatedAt: options.now,
    })
    .returning({ id: orders.id, orderNumber: orders.orderNumber });
  await tx.insert(orderItems).values(
    items.map((item) => ({
      orderId: order!.id,
      productId: item.productId,
      variantId: item.variantId,
      title: item.title,
      variantTitle: item.variantTitle,
      unitPriceCents: item.unitPriceCents,
      quantity: item.quantity,
      lineTotalCents: item.unitPriceCents * item.quantity,
    })),
  );
  await tx.insert(orderStatusChanges).values({
    orderId: order!.id,
    fromStatus: null,
    toStatus: "pending",
    actor: "system",
    note: `Renovación periodo ${period.periodNumber}`,
    createdAt: options.now,
  });
  const [payment] = await tx
    .insert(payments)
    .values({
      orderId: order!.id,
      provider: options.provider,
      method: options.method,
      status: "created",
      amountCents: period.amountCents,
      expiresAt: options.expiresAt,
      createdAt: options.now,
      updatedAt: options.now,
    })
    .returning({ id: payments.id });
  return { orderId: order!.id, paymentId: payment!.id, orderNumber: order!.orderNumber };
}

/** A declined attempt: retry in 3 days, or after the last one pause the subscription as past due. Returns whether it paused it. */
export async function failAttempt(
  tx: DatabaseOrTransaction,
  subscription: Subscription,
  period: Period,
  reason: string,
  now: Date,
  siteUrl?: string,
): Promise<boolean> {
  const today = limaToday(now);
  const last = period.attempts >= MAX_ATTEMPTS;
  const nextAttemptDate = last ? null : addDays(today, RETRY_DAYS);
  await tx
    .update(subscriptionPeriods)
    .set({ status: "failed", attempts: period.attempts, lastError: reason, nextAttemptDate, updatedAt: now })
    .where(eq(subscriptionPeriods.id, period.id));
  if (last) {
    await tx.update(subscriptions).set({ status: "past_due", updatedAt: now }).where(eq(subscriptions.id, subscription.id));
  }
  await tx.insert(subscriptionEvents).values({
    subscriptionId: subscription.id,
    kind: last ? "past_due" : "renewal_failed",
    description: last
      ? "Suscripción pausada por falta de pago"
      : `No se pudo cobrar el periodo ${period.periodNumber} (intento ${period.attempts} de ${MAX_ATTEMPTS})`,
    actor: "system",
    details: { periodNumber: period.periodNumber, attempt: period.attempts, reason },
    createdAt: now,
  });
  await notifySubscriber(tx, subscription, {
    dedupeKey: `renewal-${last ? "past-due" : "failed"}:${subscription.id}:${period.periodNumber}:${period.attempts}`,
    kind: last ? "subscription_past_due" : "renewal_failed",
    email: last
      ? { type: "past_due", amountCents: period.amountCents }
      : { type: "failed", amountCents: period.amountCents, reason, nextAttemptDate: nextAttemptDate! },
    now,
    siteUrl,
  });
  return last;
}

/**
 * Attempts left "charging" longer than a charge can take lost their answer (a crash, a timeout).
 * The provider is asked by the attempt's key: charged → completed as paid; never charged → the
 * period is due again and the next run charges it with a new key. Nothing is charged twice.
 */
async function reconcileLostCharges(db: Database, options: RenewalOptions): Promise<number> {
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
async function reconcileLostFirstCharges(db: Database, options: RenewalOptions): Promise<number> {
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
    } catch (error) {
      // One row that cannot be reconciled now never stops the others (decision 0025).
      await recordRowFailure(db, "renewals: reconcile sign-up", row.subscription.id, error, options.now);
    }
  }
  return reconciled;
}
