import { eq } from "drizzle-orm";
import { isIsoDate, limaToday } from "~/lib/lima-dates";
import { pauseDateRange, PAUSE_MAX_MONTHS } from "~/lib/subscription-self-service";
import type { Database } from "../../db/client";
import { subscriptions } from "../../db/schema";
import { resumeSubscription } from "../lifecycle";
import { changeOwnedSubscription, refuse, shortDate, stateRefusal, type SelfServiceContext, type SelfServiceResult } from "./change";

/**
 * Pause until a date (issue 5): from tomorrow to six months ahead in Lima. While paused nothing is
 * charged and no delivery is created (renewals and deliveries only take active subscriptions); on
 * that date the subscription resumes by itself (lifecycle.ts). A paused subscription can move
 * its end date. Deliveries already created (within the week before their date) are kept.
 */
export async function pauseSubscription(db: Database, input: SelfServiceContext & { until: string }): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "pause", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "pause");
    if (refusal) return refusal;
    const { min, max } = pauseDateRange(input.now);
    if (!isIsoDate(input.until)) return refuse("Elige hasta qué fecha pausar tu suscripción", "until");
    if (input.until < min) return refuse("La pausa debe terminar desde mañana en adelante", "until");
    if (input.until > max) return refuse(`La pausa puede durar hasta ${PAUSE_MAX_MONTHS} meses: elige una fecha hasta el ${shortDate(max)}`, "until");
    if (subscription.status === "paused" && subscription.pausedUntil === input.until) return refuse(`Tu suscripción ya está pausada hasta el ${shortDate(input.until)}`, "until");
    const extending = subscription.status === "paused";
    await tx.update(subscriptions).set({ status: "paused", pausedUntil: input.until, updatedAt: input.now }).where(eq(subscriptions.id, subscription.id));
    return {
      kind: "paused",
      description: `${extending ? "Pausa cambiada" : "Suscripción pausada"}: se reanudará el ${shortDate(input.until)}. Mientras tanto no haremos cobros ni entregas.`,
      details: { pausedUntil: input.until, previousPausedUntil: subscription.pausedUntil },
    };
  });
}

/** Resume now (issue 5): billing restarts today if its date passed meanwhile, deliveries from tomorrow on. */
export async function resumeSubscriptionNow(db: Database, input: SelfServiceContext): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "resume", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "resume");
    if (refusal) return refusal;
    const today = limaToday(input.now);
    const nextBilling = subscription.nextBillingDate && subscription.nextBillingDate > today ? subscription.nextBillingDate : today;
    const description = `Suscripción reanudada. Próximo cobro: ${nextBilling === today ? "hoy" : shortDate(nextBilling)}.`;
    await resumeSubscription(tx, subscription, { now: input.now, actor: "customer", description, details: { intent: "resume", requestKey: input.requestKey } });
    return { kind: "resumed", description, eventRecorded: true };
  });
}
