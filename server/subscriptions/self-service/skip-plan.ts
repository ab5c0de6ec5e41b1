import { and, asc, eq, gte, inArray } from "drizzle-orm";
import { firstBookableDate } from "@core/delivery-calendar";
import { addDays, limaToday } from "@core/lima-dates";
import { cadenceOf, daysBetweenDeliveries } from "@core/delivery-cadence";
import { nextMonthlyDeliveryDate } from "@core/subscription-dates";
import { deliveries, type subscriptions } from "../../db/schema";
import type { DatabaseOrTransaction } from "../../db/transaction";
import { cutoffFor, loadDeliveryCalendar } from "../../deliveries/index.server";

/** Deliveries the subscription page counts as coming (customer-subscriptions.ts shows the first as "Próxima entrega"). */
export const UPCOMING_DELIVERY_STATUSES = ["pending", "preparing", "scheduled", "shipped", "in_transit", "rescheduled"] as const;

export type SkipTarget =
  /** A delivery already created (within the planning week) that the team has not started on. */
  | { kind: "created"; deliveryId: string; sequence: number; date: string }
  /** The next delivery not created yet: its date moves on. */
  | { kind: "next"; date: string };

export interface SkipPlan {
  target: SkipTarget;
  /** Deliveries shown before the target that can no longer be skipped, each with why (in the customer's words). */
  kept: { date: string; reason: string }[];
  /** The customer's next delivery once the target is skipped. */
  nextAfter: string;
}

/**
 * Which delivery "Saltar la próxima entrega" skips (decision 0020, amended by issue 41): the first
 * coming delivery, in the order the page lists them, that can still be skipped. A created one can
 * while it is only pending (nobody prepared or routed it) and its date is still bookable (the
 * cut-off the day before has not passed); otherwise it goes out as planned and the button skips
 * the next one. The page and the action both read this, so what the page says is what happens.
 * `lock`: the action locks the created deliveries it reads (after the subscription, decision 0025).
 */
export async function skipPlanOf(
  tx: DatabaseOrTransaction,
  subscription: Pick<typeof subscriptions.$inferSelect, "id" | "districtId" | "nextDeliveryDate" | "deliveryCadence">,
  districtDays: number[],
  now: Date,
  lock = false,
): Promise<SkipPlan | null> {
  const query = tx
    .select({ id: deliveries.id, sequence: deliveries.subscriptionSequence, date: deliveries.deliveryDate, status: deliveries.status })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.subscriptionId, subscription.id),
        gte(deliveries.deliveryDate, limaToday(now)),
        inArray(deliveries.status, [...UPCOMING_DELIVERY_STATUSES]),
      ),
    )
    .orderBy(asc(deliveries.deliveryDate), asc(deliveries.subscriptionSequence));
  const coming = lock ? await query.for("update") : await query;
  const calendar = await loadDeliveryCalendar(tx);
  const cutoff = cutoffFor(calendar, subscription.districtId);
  const firstSkippable = firstBookableDate(now, cutoff);
  const kept: SkipPlan["kept"] = [];
  for (const [index, delivery] of coming.entries()) {
    const reason = keptReason(delivery, firstSkippable, cutoff);
    if (reason) {
      kept.push({ date: delivery.date, reason });
      continue;
    }
    const nextAfter = coming[index + 1]?.date ?? subscription.nextDeliveryDate ?? delivery.date;
    return { target: { kind: "created", deliveryId: delivery.id, sequence: delivery.sequence!, date: delivery.date }, kept, nextAfter };
  }
  if (!subscription.nextDeliveryDate) return null;
  // Decision 0097: a weekly or biweekly delivery not created yet moves one step, not a month.
  const cadence = cadenceOf(subscription.deliveryCadence);
  return {
    target: { kind: "next", date: subscription.nextDeliveryDate },
    kept,
    nextAfter:
      cadence === "monthly"
        ? nextMonthlyDeliveryDate(subscription.nextDeliveryDate, districtDays)
        : addDays(subscription.nextDeliveryDate, daysBetweenDeliveries(cadence)),
  };
}

function keptReason(delivery: { status: string; date: string; sequence: number | null }, firstSkippable: string, cutoff: string): string | null {
  switch (delivery.status) {
    case "shipped":
    case "in_transit":
      return "ya está en camino";
    case "preparing":
      return "ya la estamos preparando";
    case "scheduled":
      return "ya está en la ruta del repartidor";
    case "rescheduled":
      return "la estamos reprogramando";
  }
  if (delivery.date < firstSkippable) return `pasó la hora de corte (las ${cutoff} del día anterior)`;
  // A delivery outside the subscription's numbering (none today) is not handed back.
  if (delivery.sequence === null) return "ya está programada";
  return null;
}
