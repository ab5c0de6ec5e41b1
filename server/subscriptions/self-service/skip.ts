import { and, asc, eq, gt, sql } from "drizzle-orm";
import { orderSummary } from "@core/pricing";
import { cadenceOf } from "@core/delivery-cadence";
import { readDistrictWeekdays } from "../../content/index.server";
import type { Database } from "../../db/client";
import { deliveries, subscriptionPeriods, subscriptions } from "../../db/schema";
import type { DatabaseOrTransaction } from "../../db/transaction";
import { followNextDeliveryDate } from "../paid-deliveries";
import { advanceSubscription } from "../period-ledger";
import { changeOwnedSubscription, refuse, shortDate, stateRefusal, type SelfServiceContext, type SelfServiceResult, type Subscription } from "./change";
import { skipPlanOf, type SkipTarget } from "./skip-plan";

/**
 * Skip the next delivery (issue 5; decision 0020 as amended for issue 41): the delivery the page
 * shows as "Próxima entrega" when it can still be skipped (skip-plan.ts), else the first one after
 * it that can.
 * - A created delivery is cancelled (its place in the day's capacity is free again) and handed back
 *   to the subscription's numbering, so the delivery paid for is made on the next date instead.
 * - The next delivery not created yet moves to the same weekday a month later.
 * When the next period is billed monthly it is not charged either (ledger row `skipped`, billing
 * date a month on), so everything shifts by one month; an annual plan keeps its twelve deliveries.
 */
export async function skipNextDelivery(db: Database, input: SelfServiceContext): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "skip", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "skip");
    if (refusal) return refusal;
    if (!subscription.nextDeliveryDate || !subscription.nextBillingDate) return refuse("Tu suscripción no tiene una próxima entrega.");
    const nextPeriodFrequency = (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";
    // Decision 0097: a weekly or biweekly skip moves one delivery, never a month's billing.
    const weekly = cadenceOf(subscription.deliveryCadence) !== "monthly";
    const skipsBilling = nextPeriodFrequency === "mensual" && !weekly;
    // Decision 0025: the subscription (held by the frame), its period, then its deliveries.
    const [existing] = skipsBilling
      ? await tx
          .select()
          .from(subscriptionPeriods)
          .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber)))
          .for("update")
      : [];
    const plan = await skipPlanOf(tx, subscription, await readDistrictWeekdays(tx, subscription.districtId), input.now, true);
    if (!plan) return refuse("Tu suscripción no tiene una próxima entrega.");
    const skipped = plan.target.date;
    const keptNote = plan.kept.map((kept) => ` La entrega del ${shortDate(kept.date)} llegará como estaba previsto.`).join("");

    if (!skipsBilling) {
      await skipTarget(tx, subscription, plan.target, plan.nextAfter, input.now);
      const kept = weekly ? "El cobro no cambia: recibes todas las entregas que pagaste." : "Tu plan anual conserva sus 12 entregas.";
      return {
        kind: "delivery_skipped",
        description: `Entrega del ${shortDate(skipped)} saltada: la recibirás el ${shortDate(plan.nextAfter)}. ${kept}${keptNote}`,
        details: { skippedDelivery: skipped, nextDeliveryDate: plan.nextAfter, handedBack: plan.target.kind === "created" },
      };
    }

    if (existing?.status === "charging") return refuse("Estamos cobrando este periodo en este momento. Intenta nuevamente en unos minutos.");
    if (existing && existing.status !== "due" && existing.status !== "failed") return refuse("Este periodo ya no se puede saltar.");
    const [period] = existing
      ? await tx
          .update(subscriptionPeriods)
          .set({ status: "skipped", nextAttemptDate: null, updatedAt: input.now })
          .where(eq(subscriptionPeriods.id, existing.id))
          .returning()
      : await tx
          .insert(subscriptionPeriods)
          .values({
            subscriptionId: subscription.id,
            periodNumber: subscription.nextPeriodNumber,
            billingDate: subscription.nextBillingDate,
            status: "skipped",
            amountCents: orderSummary(subscription.baseAmountCents, "subscription", nextPeriodFrequency).totalCents,
            createdAt: input.now,
            updatedAt: input.now,
          })
          .returning();
    // The ledger's pointer moves past the skipped period exactly as past a paid one.
    await advanceSubscription(tx, subscription, period!, input.now);
    await skipTarget(tx, subscription, plan.target, plan.nextAfter, input.now);
    const [moved] = await tx.select({ nextBillingDate: subscriptions.nextBillingDate }).from(subscriptions).where(eq(subscriptions.id, subscription.id));
    return {
      kind: "delivery_skipped",
      description: `Entrega del ${shortDate(skipped)} saltada: no cobraremos el periodo del ${shortDate(subscription.nextBillingDate)}. Próximo cobro: ${shortDate(moved!.nextBillingDate!)}; próxima entrega: ${shortDate(plan.nextAfter)}.${keptNote}`,
      details: {
        skippedDelivery: skipped,
        skippedPeriod: period!.periodNumber,
        nextBillingDate: moved!.nextBillingDate,
        nextDeliveryDate: plan.nextAfter,
        handedBack: plan.target.kind === "created",
      },
    };
  });
}

/**
 * Applies the skip to the delivery: a created one is cancelled and handed back (the paid delivery it
 * was is made on the next date, the numbering closes up behind it, as a pause does); the next one
 * not created yet moves to `movedTo`.
 */
async function skipTarget(tx: DatabaseOrTransaction, subscription: Subscription, target: SkipTarget, movedTo: string, now: Date) {
  if (target.kind === "next") {
    await tx.update(subscriptions).set({ nextDeliveryDate: movedTo, updatedAt: now }).where(eq(subscriptions.id, subscription.id));
    await followNextDeliveryDate(tx, subscription, movedTo, now, { skippedOnly: true });
    return;
  }
  const entry = { status: "cancelled", timestamp: now.toISOString(), note: "Entrega saltada por el cliente" };
  await tx
    .update(deliveries)
    .set({
      status: "cancelled",
      subscriptionSequence: null,
      statusHistory: sql`${deliveries.statusHistory} || ${JSON.stringify([entry])}::jsonb`,
      updatedAt: now,
    })
    .where(eq(deliveries.id, target.deliveryId));
  // Later created deliveries (a weekly plan's) close up one number, in order, so the numbers stay unique and gapless.
  const later = await tx
    .select({ id: deliveries.id, sequence: deliveries.subscriptionSequence })
    .from(deliveries)
    .where(and(eq(deliveries.subscriptionId, subscription.id), gt(deliveries.subscriptionSequence, target.sequence)))
    .orderBy(asc(deliveries.subscriptionSequence));
  for (const delivery of later) {
    await tx
      .update(deliveries)
      .set({ subscriptionSequence: delivery.sequence! - 1, updatedAt: now })
      .where(eq(deliveries.id, delivery.id));
  }
  const deliveriesMade = subscription.deliveriesMade - 1;
  await tx.update(subscriptions).set({ deliveriesMade, updatedAt: now }).where(eq(subscriptions.id, subscription.id));
  // The paid period's order waits for the delivery the skip handed back: its page says the new date.
  await followNextDeliveryDate(tx, { ...subscription, deliveriesMade }, subscription.nextDeliveryDate!, now, { skippedOnly: true });
}
