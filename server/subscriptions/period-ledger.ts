import { and, eq } from "drizzle-orm";
import { addDays, limaToday } from "@core/lima-dates";
import { orderSummary } from "@core/pricing";
import { billingDateOfPeriod } from "@core/subscription-dates";
import { subscriptionEvents, subscriptionPeriods, subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { notifySubscriber } from "./notify";
import { applyPendingItemPrices } from "./pending-prices";

/**
 * The period ledger (decision 0023): one `subscription_periods` row per (subscription, number),
 * the subscription's pointer to its next one, and what a failed attempt does to both.
 */

/** Issue 5: a failed renewal is retried 3 times, 3 days apart; after the last failure the subscription is paused as past due. */
export const RETRY_DAYS = 3;
export const MAX_ATTEMPTS = 4;

export type Subscription = typeof subscriptions.$inferSelect;
export type Period = typeof subscriptionPeriods.$inferSelect;

/** The frequency the subscription's next period is billed at: a pending change takes effect there. */
export function frequencyOfNextPeriod(subscription: Pick<Subscription, "frequency" | "pendingFrequency">): "mensual" | "anual" {
  return (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";
}

/** The ledger row of the subscription's next period as first written (its price fixed then). */
export function newPeriodValues(subscription: Subscription, now: Date): typeof subscriptionPeriods.$inferInsert {
  return {
    subscriptionId: subscription.id,
    periodNumber: subscription.nextPeriodNumber,
    billingDate: subscription.nextBillingDate!,
    amountCents: orderSummary(subscription.baseAmountCents, "subscription", frequencyOfNextPeriod(subscription)).totalCents,
    createdAt: now,
    updatedAt: now,
  };
}

/** The ledger row of the subscription's next period, created on first sight and locked. Frequency changes apply here. */
export async function currentPeriod(tx: DatabaseOrTransaction, subscription: Subscription, now: Date): Promise<Period> {
  await tx.insert(subscriptionPeriods).values(newPeriodValues(subscription, now)).onConflictDoNothing();
  const [period] = await tx
    .select()
    .from(subscriptionPeriods)
    .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber)))
    .for("update");
  return period!;
}

/** The subscription's pointer moves past a settled (paid or skipped) period; a pending frequency change takes effect. */
export async function advanceSubscription(tx: DatabaseOrTransaction, subscription: Subscription, period: Period, now: Date) {
  if (subscription.nextPeriodNumber !== period.periodNumber) return;
  // A catalogue price parked while this period was open starts with the next one (decision 0055).
  const baseAmountCents = (await applyPendingItemPrices(tx, subscription, period.periodNumber + 1)) ?? subscription.baseAmountCents;
  await tx
    .update(subscriptions)
    .set({ ...advancedPointer({ ...subscription, baseAmountCents }, period), updatedAt: now })
    .where(eq(subscriptions.id, subscription.id));
}

/** What `advanceSubscription` writes: the next period's number, billing date, frequency and price. */
export function advancedPointer(subscription: Subscription, period: Period) {
  const frequency = frequencyOfNextPeriod(subscription);
  return {
    frequency,
    pendingFrequency: null,
    discountRateBasisPoints: frequency === "anual" ? 1500 : 500,
    amountCents: orderSummary(subscription.baseAmountCents, "subscription", frequency).totalCents,
    nextPeriodNumber: period.periodNumber + 1,
    nextBillingDate: billingDateOfPeriod(period.billingDate, frequency, 2),
  };
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
    // Issue 25: "cobro fallido" with the link to pay, on WhatsApp for a number that opted in.
    whatsapp: { type: "renewal_failed", periodNumber: period.periodNumber, attempt: period.attempts, amountCents: period.amountCents, nextAttemptDate },
    now,
    siteUrl,
  });
  return last;
}
