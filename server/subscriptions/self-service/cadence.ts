import { eq } from "drizzle-orm";
import { cadenceOf, deliveriesPerMonth, deliveryCadenceLabels, isDeliveryCadence } from "@core/delivery-cadence";
import { orderSummary } from "@core/pricing";
import type { Database } from "../../db/client";
import { subscriptions } from "../../db/schema";
import { itemsSubtotal } from "../pending-prices";
import { changeOwnedSubscription, refuse, shortDate, stateRefusal, type SelfServiceContext, type SelfServiceResult } from "./change";
import { perPeriodLabel, repriceOpenPeriod } from "./products";

/**
 * Change how often the deliveries come (issue 41, decision 0097), from the next charge on, as the
 * products do: the subscription's cadence and monthly base change now, so the next period is
 * billed and delivered at the new pace; the period already paid keeps its deliveries at the pace
 * its order was billed with (`paid-deliveries.ts`), so nothing paid for is lost or added.
 */
export async function changeSubscriptionCadence(db: Database, input: SelfServiceContext & { cadence: string }): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "cadence", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "cadence");
    if (refusal) return refusal;
    if (!isDeliveryCadence(input.cadence)) return refuse("Elige cada cuánto quieres tus entregas", "cadence");
    const cadence = input.cadence;
    if (cadence === cadenceOf(subscription.deliveryCadence)) {
      return refuse(`Tus entregas ya son ${deliveryCadenceLabels[cadence].toLowerCase()}`, "cadence");
    }
    const baseAmountCents = await itemsSubtotal(tx, { id: subscription.id, deliveryCadence: cadence });
    const frequency = subscription.frequency as "mensual" | "anual";
    const nextFrequency = (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";
    const repriced = await repriceOpenPeriod(tx, subscription, baseAmountCents, nextFrequency, input.now);
    if (repriced) return repriced;
    await tx
      .update(subscriptions)
      .set({
        deliveryCadence: cadence,
        baseAmountCents,
        amountCents: orderSummary(baseAmountCents, "subscription", frequency).totalCents,
        updatedAt: input.now,
      })
      .where(eq(subscriptions.id, subscription.id));
    const nextCharge = orderSummary(baseAmountCents, "subscription", nextFrequency).totalCents;
    const perMonth = deliveriesPerMonth(cadence);
    return {
      kind: "cadence_changed",
      description: `Entregas ${deliveryCadenceLabels[cadence].toLowerCase()} (${perMonth} al mes) desde el cobro del ${shortDate(subscription.nextBillingDate!)}. Nuevo cobro: ${perPeriodLabel(nextCharge, nextFrequency)}.`,
      details: { from: cadenceOf(subscription.deliveryCadence), to: cadence, baseAmountCents, nextChargeCents: nextCharge },
    };
  });
}
