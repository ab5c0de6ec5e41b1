import { eq } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { cancelReasonLabel } from "@core/subscription-self-service";
import type { Database } from "../../db/client";
import { subscriptions } from "../../db/schema";
import { changeOwnedSubscription, refuse, shortDate, stateRefusal, type SelfServiceContext, type SelfServiceResult } from "./change";

const DETAIL_MAX = 500;

/**
 * Cancel with a reason (issue 5), effective at the end of the paid period: `endsOn` is the next
 * billing date, which renewals never charge; the subscription stays as it is until then and
 * lifecycle.ts ends it. A subscription whose paid period is already over (past due, or paused past
 * its billing date) ends at once.
 */
export async function cancelSubscription(db: Database, input: SelfServiceContext & { reason: string; detail: string }): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "cancel", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "cancel");
    if (refusal) return refusal;
    const label = cancelReasonLabel(input.reason);
    if (!label) return refuse("Elige el motivo de la cancelación", "reason");
    const detail = input.detail.trim();
    if (input.reason === "otro" && !detail) return refuse("Cuéntanos el motivo", "detail");
    if (detail.length > DETAIL_MAX) return refuse(`Escribe como máximo ${DETAIL_MAX} caracteres`, "detail");
    const reason = detail ? `${label}: ${detail}` : label;
    const today = limaToday(input.now);
    const paidUntil =
      subscription.status !== "past_due" && subscription.nextBillingDate && subscription.nextBillingDate > today ? subscription.nextBillingDate : null;
    await tx
      .update(subscriptions)
      .set({ ...(paidUntil ? {} : { status: "cancelled" }), endsOn: paidUntil ?? today, cancelledAt: input.now, cancelReason: reason, updatedAt: input.now })
      .where(eq(subscriptions.id, subscription.id));
    return {
      kind: paidUntil ? "cancellation_scheduled" : "cancelled",
      description: paidUntil
        ? `Suscripción cancelada: no haremos más cobros y terminará el ${shortDate(paidUntil)}. Motivo: ${reason}.`
        : `Suscripción cancelada: no haremos más cobros. Motivo: ${reason}.`,
      details: { endsOn: paidUntil ?? today, reason: input.reason, detail },
    };
  });
}

/** Undo a cancellation before it takes effect: the subscription carries on as before. */
export async function undoCancellation(db: Database, input: SelfServiceContext): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "undo-cancel", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "undo-cancel");
    if (refusal) return refusal;
    if (subscription.endsOn! <= limaToday(input.now)) return refuse("Tu suscripción ya terminó.");
    await tx
      .update(subscriptions)
      .set({ endsOn: null, cancelledAt: null, cancelReason: null, updatedAt: input.now })
      .where(eq(subscriptions.id, subscription.id));
    return {
      kind: "cancellation_undone",
      description: `Cancelación anulada: tu suscripción continúa${subscription.nextBillingDate ? ` y el próximo cobro será el ${shortDate(subscription.nextBillingDate)}` : ""}.`,
      details: { endsOn: subscription.endsOn },
    };
  });
}
