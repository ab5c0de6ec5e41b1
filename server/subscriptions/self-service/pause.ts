import { and, asc, eq, lte, sql } from "drizzle-orm";
import { isIsoDate, limaToday } from "@core/lima-dates";
import { pauseDateRange, PAUSE_MAX_MONTHS } from "@core/subscription-self-service";
import type { Database } from "../../db/client";
import { deliveries, subscriptions } from "../../db/schema";
import type { DatabaseOrTransaction } from "../../db/transaction";
import { resumedDatesText, resumeSubscription } from "../lifecycle";
import { monthAnchorForNextDelivery, paidPeriodsOf, periodOfDelivery } from "../paid-deliveries";
import {
  changeOwnedSubscription,
  describedFor,
  eventActor,
  refuse,
  shortDate,
  stateRefusal,
  type SelfServiceContext,
  type SelfServiceResult,
  type Subscription,
} from "./change";

/**
 * Pause until a date (issue 5): from tomorrow to six months ahead in Lima. While paused nothing is
 * charged and no delivery is created (renewals and deliveries only take active subscriptions); on
 * that date the subscription resumes by itself (lifecycle.ts). A paused subscription can move
 * its end date. A delivery already created for a date inside the pause (they are created a week
 * ahead) that the team has not started on is cancelled and handed back: it is created again after
 * the pause, so nothing is delivered while paused and nothing paid for is lost. One the team is
 * already preparing goes out as planned, and the page still shows it.
 */
export async function pauseSubscription(db: Database, input: SelfServiceContext & { until: string }): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "pause", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "pause");
    if (refusal) return refusal;
    const { min, max } = pauseDateRange(input.now);
    if (!isIsoDate(input.until)) return refuse("Elige hasta qué fecha pausar tu suscripción", "until");
    if (input.until < min) return refuse("La pausa debe terminar desde mañana en adelante", "until");
    if (input.until > max) return refuse(`La pausa puede durar hasta ${PAUSE_MAX_MONTHS} meses: elige una fecha hasta el ${shortDate(max)}`, "until");
    if (subscription.status === "paused" && subscription.pausedUntil === input.until)
      return refuse(`Tu suscripción ya está pausada hasta el ${shortDate(input.until)}`, "until");
    const extending = subscription.status === "paused";
    const handedBack = await handBackDeliveriesInPause(tx, subscription, input.until, input.now);
    // Handed back, the next delivery may sit in the month before the anchor the scheduler had moved on to (decision 0097).
    const handedBackFrom = handedBack && {
      deliveriesMade: subscription.deliveriesMade - handedBack.count,
      nextDeliveryDate: handedBack.firstDate,
      deliveryAnchorDate: await monthAnchorForNextDelivery(
        tx,
        { ...subscription, deliveriesMade: subscription.deliveriesMade - handedBack.count },
        handedBack.firstDate,
      ),
    };
    await tx
      .update(subscriptions)
      .set({
        status: "paused",
        pausedUntil: input.until,
        updatedAt: input.now,
        ...handedBackFrom,
      })
      .where(eq(subscriptions.id, subscription.id));
    // Decision 0066: a paid delivery the pause holds back (handed back now, or paid and not created
    // yet) is not lost; the customer reads that it comes after the pause.
    const heldBackDate = handedBack?.firstDate ?? (await paidDeliveryInPause(tx, subscription, input.until));
    const heldBack = heldBackDate
      ? ` ${(handedBack?.count ?? 1) === 1 ? `La entrega ya pagada del ${shortDate(heldBackDate)} queda` : `Las entregas ya pagadas desde el ${shortDate(heldBackDate)} quedan`} en pausa: la programaremos al reanudarse tu suscripción.`
      : "";
    return {
      kind: "paused",
      description: `${extending ? "Pausa cambiada" : "Suscripción pausada"}: se reanudará el ${shortDate(input.until)}. Mientras tanto no haremos cobros ni entregas.${heldBack}`,
      details: { pausedUntil: input.until, previousPausedUntil: subscription.pausedUntil, cancelledDeliveries: handedBack?.count ?? 0 },
    };
  });
}

/** Resume now (issue 5): billing restarts today if its date passed meanwhile, deliveries from tomorrow on. */
export async function resumeSubscriptionNow(db: Database, input: SelfServiceContext): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "resume", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "resume");
    if (refusal) return refusal;
    const today = limaToday(input.now);
    // The next delivery is the one the pause held back, if any: the customer hears its date (decision 0066).
    const { description } = await resumeSubscription(tx, subscription, {
      now: input.now,
      actor: eventActor(input),
      description: (dates) => describedFor(input, `Suscripción reanudada. ${resumedDatesText(dates, today)}`),
      details: { intent: "resume", requestKey: input.requestKey, ...(input.staff ? { staffEmail: input.staff.email } : {}) },
    });
    return { kind: "resumed", description, eventRecorded: true };
  });
}

/** The date of the subscription's next delivery when it falls inside the pause and is already paid for (its order waits for it); null otherwise. */
async function paidDeliveryInPause(tx: DatabaseOrTransaction, subscription: Subscription, until: string): Promise<string | null> {
  if (!subscription.nextDeliveryDate || subscription.nextDeliveryDate > until) return null;
  const period = periodOfDelivery(await paidPeriodsOf(tx, subscription), subscription.deliveriesMade + 1);
  return period?.orderId ? subscription.nextDeliveryDate : null;
}

/**
 * Cancels the subscription's last created deliveries that fall inside the pause (up to its end
 * day: a resume schedules from the day after) and are still only pending, releasing their place in
 * the subscription's numbering so the same paid-for deliveries are created again after the pause.
 * Only a run of the newest deliveries is handed back, so the numbering stays without gaps.
 */
async function handBackDeliveriesInPause(
  tx: DatabaseOrTransaction,
  subscription: { id: string; deliveriesMade: number },
  until: string,
  now: Date,
): Promise<{ count: number; firstDate: string } | null> {
  const created = await tx
    .select({ id: deliveries.id, sequence: deliveries.subscriptionSequence, date: deliveries.deliveryDate, status: deliveries.status })
    .from(deliveries)
    .where(and(eq(deliveries.subscriptionId, subscription.id), lte(deliveries.deliveryDate, until)))
    .orderBy(asc(deliveries.subscriptionSequence))
    .for("update");
  const handBack: typeof created = [];
  for (let sequence = subscription.deliveriesMade; sequence > 0; sequence -= 1) {
    const delivery = created.find((row) => row.sequence === sequence);
    if (!delivery || delivery.status !== "pending" || delivery.date < limaToday(now)) break;
    handBack.unshift(delivery);
  }
  if (handBack.length === 0) return null;
  const entry = { status: "cancelled", timestamp: now.toISOString(), note: `Suscripción pausada hasta el ${shortDate(until)}` };
  for (const delivery of handBack) {
    await tx
      .update(deliveries)
      .set({
        status: "cancelled",
        subscriptionSequence: null,
        statusHistory: sql`${deliveries.statusHistory} || ${JSON.stringify([entry])}::jsonb`,
        updatedAt: now,
      })
      .where(eq(deliveries.id, delivery.id));
  }
  return { count: handBack.length, firstDate: handBack[0]!.date };
}
