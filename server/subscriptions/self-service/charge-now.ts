import { and, eq, isNull } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import type { Database } from "../../db/client";
import { paymentMethods, subscriptionPeriods, subscriptions } from "../../db/schema";
import type { StaffActor } from "../../audit/index.server";
import type { CardProvider } from "../../payments/index.server";
import { resumeSubscription } from "../lifecycle";
import { renewDueSubscriptions } from "../renewals";
import { changeOwnedSubscription, describedFor, refuse, type SelfServiceContext, type SelfServiceResult } from "./change";

export type ChargeNowResult = SelfServiceResult & { charge?: "paid" | "declined" | "pending" };

/**
 * "Cobrar ahora" (issue 11): staff charge the saved card for a period renewals could not collect,
 * through renewals' own path (renewals.ts with `onlySubscriptionId`), so the period ledger's
 * attempt key makes it one charge. In one transaction the subscription is made due today: a past
 * due one is reactivated (as a customer's card update does), a declined one waiting for its retry
 * date has that date brought to today. The provider is called after the commit. The same request
 * key twice (a double click) finds its history entry and charges nothing more; a second request
 * finds the period charging or paid and is refused.
 */
export async function chargeUnpaidPeriodNow(
  db: Database,
  input: SelfServiceContext & { staff: StaffActor; cardsFor: (provider: string) => CardProvider },
): Promise<ChargeNowResult> {
  const result = await changeOwnedSubscription(db, input, "charge-now", async (tx, subscription) => {
    if (subscription.billingMethod !== "card") return refuse("Esta suscripción paga cada periodo con un enlace: no hay una tarjeta que cobrar.");
    const [card] = subscription.paymentMethodId
      ? await tx
          .select({ id: paymentMethods.id })
          .from(paymentMethods)
          .where(and(eq(paymentMethods.id, subscription.paymentMethodId), isNull(paymentMethods.revokedAt)))
      : [];
    if (!card) return refuse("La suscripción no tiene una tarjeta registrada.");
    const [period] = await tx
      .select()
      .from(subscriptionPeriods)
      .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber)))
      .for("update");
    if (period?.status === "charging") return refuse("Este periodo se está cobrando en este momento.");
    if (period?.status !== "failed") return refuse("Esta suscripción no tiene un cobro pendiente.");
    const amount = formatSoles(period.amountCents);
    const description = `Cobro del periodo ${period.periodNumber} (${amount}) intentado de nuevo con la tarjeta registrada.`;
    if (subscription.status === "past_due") {
      await resumeSubscription(tx, subscription, {
        now: input.now,
        actor: "staff",
        description: describedFor(input, "Suscripción reactivada para cobrar el periodo pendiente."),
      });
    } else if (subscription.status === "active") {
      await tx
        .update(subscriptionPeriods)
        .set({ nextAttemptDate: limaToday(input.now), updatedAt: input.now })
        .where(eq(subscriptionPeriods.id, period.id));
      await tx.update(subscriptions).set({ updatedAt: input.now }).where(eq(subscriptions.id, subscription.id));
    } else {
      return refuse("Solo se puede cobrar una suscripción activa o con el pago vencido.");
    }
    return { kind: "charge_retried", description, details: { periodNumber: period.periodNumber, amountCents: period.amountCents, attempts: period.attempts } };
  });
  if (!result.ok || result.alreadyApplied) return result;
  const report = await renewDueSubscriptions(db, {
    now: input.now,
    siteUrl: input.siteUrl,
    cardsFor: input.cardsFor,
    onlySubscriptionId: input.subscriptionId,
  });
  return { ...result, charge: report.charged > 0 ? "paid" : report.unknown > 0 ? "pending" : "declined" };
}
