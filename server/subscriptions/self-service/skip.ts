import { and, eq } from "drizzle-orm";
import { orderSummary } from "@core/pricing";
import { nextMonthlyDeliveryDate } from "@core/subscription-dates";
import { readDistrictWeekdays } from "../../content/index.server";
import type { Database } from "../../db/client";
import { subscriptionPeriods, subscriptions } from "../../db/schema";
import { followNextDeliveryDate } from "../paid-deliveries";
import { advanceSubscription } from "../period-ledger";
import { changeOwnedSubscription, refuse, shortDate, stateRefusal, type SelfServiceContext, type SelfServiceResult } from "./change";

/**
 * Skip the next delivery (issue 5, decision 0020). The next delivery not yet scheduled moves to
 * the same weekday a month later, and:
 * - when the next period is billed monthly, that period is not charged: its ledger row is marked
 *   `skipped` and the billing date moves a month, so everything shifts by one month;
 * - when it is billed yearly, only the delivery moves (the year paid for keeps its twelve deliveries).
 */
export async function skipNextDelivery(db: Database, input: SelfServiceContext): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "skip", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "skip");
    if (refusal) return refusal;
    if (!subscription.nextDeliveryDate || !subscription.nextBillingDate) return refuse("Tu suscripción no tiene una próxima entrega.");
    const skippedDelivery = subscription.nextDeliveryDate;
    const movedDelivery = nextMonthlyDeliveryDate(skippedDelivery, await readDistrictWeekdays(tx, subscription.districtId));
    const nextPeriodFrequency = (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";

    if (nextPeriodFrequency === "anual") {
      await tx.update(subscriptions).set({ nextDeliveryDate: movedDelivery, updatedAt: input.now }).where(eq(subscriptions.id, subscription.id));
      await followNextDeliveryDate(tx, subscription, movedDelivery, input.now);
      return {
        kind: "delivery_skipped",
        description: `Entrega del ${shortDate(skippedDelivery)} saltada: la recibirás el ${shortDate(movedDelivery)}. Tu plan anual conserva sus 12 entregas.`,
        details: { skippedDelivery, nextDeliveryDate: movedDelivery },
      };
    }

    const [existing] = await tx
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber)))
      .for("update");
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
    await tx.update(subscriptions).set({ nextDeliveryDate: movedDelivery }).where(eq(subscriptions.id, subscription.id));
    await followNextDeliveryDate(tx, subscription, movedDelivery, input.now);
    const [moved] = await tx.select({ nextBillingDate: subscriptions.nextBillingDate }).from(subscriptions).where(eq(subscriptions.id, subscription.id));
    return {
      kind: "delivery_skipped",
      description: `Entrega del ${shortDate(skippedDelivery)} saltada: no cobraremos el periodo del ${shortDate(subscription.nextBillingDate)}. Próximo cobro: ${shortDate(moved!.nextBillingDate!)}; próxima entrega: ${shortDate(movedDelivery)}.`,
      details: { skippedDelivery, skippedPeriod: period!.periodNumber, nextBillingDate: moved!.nextBillingDate, nextDeliveryDate: movedDelivery },
    };
  });
}
