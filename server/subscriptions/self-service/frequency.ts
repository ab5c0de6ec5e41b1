import { eq } from "drizzle-orm";
import { orderSummary } from "@core/pricing";
import type { Database } from "../../db/client";
import { subscriptions } from "../../db/schema";
import { changeOwnedSubscription, refuse, shortDate, stateRefusal, type SelfServiceContext, type SelfServiceResult } from "./change";
import { perPeriodLabel, repriceOpenPeriod } from "./products";

/**
 * Change frequency mensual ↔ anual from the next period (issue 5): kept as `pendingFrequency`,
 * which renewals price the next period with and apply when it starts. Choosing the current plan
 * again withdraws a pending change.
 */
export async function changeSubscriptionFrequency(db: Database, input: SelfServiceContext & { frequency: string }): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "frequency", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "frequency");
    if (refusal) return refusal;
    if (input.frequency !== "mensual" && input.frequency !== "anual") return refuse("Elige el plan mensual o el anual", "frequency");
    const frequency = input.frequency;
    if (frequency === (subscription.pendingFrequency ?? subscription.frequency)) {
      return refuse(`Tu suscripción ya ${subscription.pendingFrequency ? "cambiará" : "es"} al plan ${frequency}`, "frequency");
    }
    const repriced = await repriceOpenPeriod(tx, subscription, subscription.baseAmountCents, frequency, input.now);
    if (repriced) return repriced;
    const withdrawing = frequency === subscription.frequency;
    await tx
      .update(subscriptions)
      .set({ pendingFrequency: withdrawing ? null : frequency, updatedAt: input.now })
      .where(eq(subscriptions.id, subscription.id));
    const amount = perPeriodLabel(orderSummary(subscription.baseAmountCents, "subscription", frequency).totalCents, frequency);
    return {
      kind: "frequency_changed",
      description: withdrawing
        ? `Cambio de plan anulado: sigues con el plan ${frequency}, ${amount}.`
        : `Plan cambiado a ${frequency} desde el cobro del ${shortDate(subscription.nextBillingDate!)}: ${amount}.`,
      details: {
        from: subscription.pendingFrequency ?? subscription.frequency,
        to: frequency,
        nextChargeCents: orderSummary(subscription.baseAmountCents, "subscription", frequency).totalCents,
      },
    };
  });
}
