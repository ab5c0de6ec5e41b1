import { and, eq, inArray, isNotNull, lte } from "drizzle-orm";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { datesOnResume } from "@core/subscription-self-service";
import type { Database } from "../db/client";
import { readDistrictWeekdays } from "../content/index.server";
import { subscriptionEvents, subscriptionPeriods, subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { forEachRowOnItsOwn } from "../db/row-failures";
import { notifySubscriber } from "./notify";
import { monthAnchorForNextDelivery } from "./paid-deliveries";
import { inTransaction } from "../db/transaction";

type Subscription = typeof subscriptions.$inferSelect;

/** The dates a subscription has once resumed, for its history line and e-mail. */
export interface ResumedDates {
  nextBillingDate: string;
  nextDeliveryDate: string;
}

/** "Próximo cobro: hoy. Próxima entrega: 12 de febrero de 2027." for the history line and the e-mail. */
export function resumedDatesText(dates: ResumedDates, today: string): string {
  const long = (date: string) => formatLimaDate(date, { day: "numeric", month: "long", year: "numeric" });
  return `Próximo cobro: ${dates.nextBillingDate === today ? "hoy" : long(dates.nextBillingDate)}. Próxima entrega: ${long(dates.nextDeliveryDate)}.`;
}

/**
 * Back from a pause (issue 5): billing restarts on the resume day if the billing date passed while
 * paused, and the next delivery is the first served weekday from tomorrow on, if it also passed.
 * That next delivery is the one a pause handed back, if any (pause.ts): the scheduler creates it
 * again on that date, for the order that paid for it (decision 0066). A new delivery date
 * re-anchors a weekly or biweekly month on it (decision 0097).
 */
export async function resumeSubscription(
  tx: DatabaseOrTransaction,
  subscription: Subscription,
  context: { now: Date; actor: string; description: string | ((dates: ResumedDates) => string); details?: Record<string, unknown> },
): Promise<ResumedDates & { description: string }> {
  const today = limaToday(context.now);
  const days = await readDistrictWeekdays(tx, subscription.districtId);
  const { nextBillingDate, nextDeliveryDate: nextDelivery } = datesOnResume(subscription, today, days);
  const reanchored =
    nextDelivery === subscription.nextDeliveryDate ? {} : { deliveryAnchorDate: await monthAnchorForNextDelivery(tx, subscription, nextDelivery) };
  await tx
    .update(subscriptions)
    .set({
      status: "active",
      pausedUntil: null,
      nextBillingDate,
      nextDeliveryDate: nextDelivery,
      ...reanchored,
      updatedAt: context.now,
    })
    .where(eq(subscriptions.id, subscription.id));
  if (nextBillingDate !== subscription.nextBillingDate) {
    // An unpaid period created before the pause (a declined renewal) restarts on the resume day
    // too, due at once: the calendar moves on from there, so no missed month is billed on top.
    await tx
      .update(subscriptionPeriods)
      .set({ billingDate: nextBillingDate, nextAttemptDate: null, updatedAt: context.now })
      .where(
        and(
          eq(subscriptionPeriods.subscriptionId, subscription.id),
          eq(subscriptionPeriods.periodNumber, subscription.nextPeriodNumber),
          inArray(subscriptionPeriods.status, ["due", "failed"]),
        ),
      );
  }
  const description = typeof context.description === "string" ? context.description : context.description({ nextBillingDate, nextDeliveryDate: nextDelivery });
  await tx.insert(subscriptionEvents).values({
    subscriptionId: subscription.id,
    kind: "resumed",
    description,
    actor: context.actor,
    details: context.details ?? null,
    createdAt: context.now,
  });
  return { nextBillingDate, nextDeliveryDate: nextDelivery, description };
}

/**
 * Pauses that reached their end date resume by themselves, and the customer hears it with the
 * dates it restarts on (decision 0066: the delivery the pause held back comes on that date).
 */
export async function resumeEndedPauses(db: Database, now: Date): Promise<number> {
  const today = limaToday(now);
  const due = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.status, "paused"), isNotNull(subscriptions.pausedUntil), lte(subscriptions.pausedUntil, today)));
  await forEachRowOnItsOwn(
    db,
    "resume ended pauses",
    due,
    ({ id }) => id,
    now,
    (row) =>
      inTransaction(db, async (tx) => {
        const [subscription] = await tx.select().from(subscriptions).where(eq(subscriptions.id, row.id)).for("update");
        if (subscription?.status !== "paused" || !subscription.pausedUntil || subscription.pausedUntil > today) return;
        const resumed = await resumeSubscription(tx, subscription, {
          now,
          actor: "system",
          description: (dates) => `Suscripción reanudada al terminar la pausa. ${resumedDatesText(dates, today)}`,
        });
        await notifySubscriber(tx, subscription, {
          // One e-mail per pause that ended, however often the job runs.
          dedupeKey: `subscription-resumed:${subscription.id}:${subscription.pausedUntil}`,
          kind: "subscription_changed",
          email: { type: "changed", change: `Tu pausa terminó y tu suscripción está activa de nuevo. ${resumedDatesText(resumed, today)}` },
          now,
        });
      }),
  );
  return due.length;
}

/** Cancellations take effect at the end of the paid period (issue 5): from that day the subscription is cancelled. */
export async function endCancelledSubscriptions(db: Database, now: Date): Promise<number> {
  const today = limaToday(now);
  // The status change and its history line commit together, or a crash between them loses the line.
  return inTransaction(db, async (tx) => {
    const ended = await tx
      .update(subscriptions)
      .set({ status: "cancelled", updatedAt: now })
      .where(and(inArray(subscriptions.status, ["active", "paused", "past_due"]), isNotNull(subscriptions.endsOn), lte(subscriptions.endsOn, today)))
      .returning({ id: subscriptions.id });
    if (ended.length > 0) {
      await tx
        .insert(subscriptionEvents)
        .values(ended.map(({ id }) => ({ subscriptionId: id, kind: "cancelled", description: "Suscripción finalizada", actor: "system", createdAt: now })));
    }
    return ended.length;
  });
}
