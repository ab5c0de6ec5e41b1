import { and, asc, eq, sql } from "drizzle-orm";
import { deliveriesPerPeriod } from "@core/subscription-dates";
import { cadenceOf, type DeliveryCadence } from "@core/delivery-cadence";
import { monthAnchorAt } from "@core/cadence-dates";
import { deliveries, orders, subscriptionPeriods, type subscriptions } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

export interface PaidPeriod {
  periodNumber: number;
  orderId: string | null;
  /** The cadence its order was billed with (decision 0097): its deliveries come at that pace. */
  cadence: DeliveryCadence;
  /** Deliveries this period paid for: its months (1 mensual, 12 anual) × its cadence's a month, as its order was billed (decision 0097). */
  deliveries: number;
}

/**
 * The paid periods of a subscription, each with the deliveries it paid for. A period counts by
 * the frequency its own order was billed with, so a change mensual ↔ anual (self-service) keeps
 * the deliveries already paid for and adds the new period's, no more and no fewer.
 */
export async function paidPeriodsOf(
  tx: DatabaseOrTransaction,
  subscription: Pick<typeof subscriptions.$inferSelect, "id" | "frequency">,
): Promise<PaidPeriod[]> {
  const rows = await tx
    .select({
      periodNumber: subscriptionPeriods.periodNumber,
      orderId: subscriptionPeriods.orderId,
      frequency: orders.subscriptionFrequency,
      cadence: orders.deliveryCadence,
    })
    .from(subscriptionPeriods)
    .leftJoin(orders, eq(orders.id, subscriptionPeriods.orderId))
    .where(and(eq(subscriptionPeriods.subscriptionId, subscription.id), eq(subscriptionPeriods.status, "paid")))
    .orderBy(asc(subscriptionPeriods.periodNumber));
  return rows.map((row) => ({
    periodNumber: row.periodNumber,
    orderId: row.orderId,
    cadence: cadenceOf(row.cadence),
    // Migration 0048 wrote `monthly` on every earlier subscription order; checkout and renewals write theirs.
    deliveries: deliveriesPerPeriod(row.frequency ?? subscription.frequency, cadenceOf(row.cadence)),
  }));
}

/** Where delivery number `sequence` (1-based) falls: its paid period and its 0-based place in it; undefined when not paid for yet. */
export function placeOfDelivery(paid: PaidPeriod[], sequence: number): { period: PaidPeriod; indexInPeriod: number } | undefined {
  let covered = 0;
  for (const period of paid) {
    if (sequence <= covered + period.deliveries) return { period, indexInPeriod: sequence - covered - 1 };
    covered += period.deliveries;
  }
  return undefined;
}

/** The paid period monthly delivery number `sequence` (1-based) belongs to; undefined when not paid for yet. */
export function periodOfDelivery(paid: PaidPeriod[], sequence: number): PaidPeriod | undefined {
  return placeOfDelivery(paid, sequence)?.period;
}

/**
 * The month anchor for the subscription's next delivery (number `deliveriesMade + 1`) when it is
 * wanted on `date`, a date the customer chose («Cambiar fecha», a resume) or a pause handed back
 * (decision 0097): counted at the pace of the period that paid for it, or, not paid for yet, as
 * the first delivery of the next period at the subscription's cadence. Null for monthly.
 */
export async function monthAnchorForNextDelivery(
  tx: DatabaseOrTransaction,
  subscription: Pick<typeof subscriptions.$inferSelect, "id" | "frequency" | "deliveriesMade" | "deliveryCadence">,
  date: string,
): Promise<string | null> {
  const place = placeOfDelivery(await paidPeriodsOf(tx, subscription), subscription.deliveriesMade + 1);
  return monthAnchorAt({ cadence: place?.period.cadence ?? cadenceOf(subscription.deliveryCadence), date, indexInPeriod: place?.indexInPeriod ?? 0 });
}

/**
 * Decision 0062: the customer moved their next delivery (a new date, a skipped month) before it
 * was created. When a paid period's order is waiting for that delivery and has none yet (a
 * monthly renewal), the order's requested date follows, so its pages and e-mails say the new one.
 * An order that already has deliveries (an annual plan's) shows theirs. `skippedOnly` (the skip,
 * issue 41): an order whose deliveries were all cancelled (one a skip handed back) waits for the
 * next date too. The order row is written after the subscription the caller
 * holds (decision 0025).
 */
export async function followNextDeliveryDate(
  tx: DatabaseOrTransaction,
  subscription: Pick<typeof subscriptions.$inferSelect, "id" | "frequency" | "deliveriesMade">,
  date: string,
  now: Date,
  { skippedOnly = false }: { skippedOnly?: boolean } = {},
): Promise<void> {
  const period = periodOfDelivery(await paidPeriodsOf(tx, subscription), subscription.deliveriesMade + 1);
  if (!period?.orderId) return;
  await tx
    .update(orders)
    .set({ deliveryDate: date, updatedAt: now })
    .where(
      and(
        eq(orders.id, period.orderId),
        skippedOnly
          ? sql`not exists (select 1 from ${deliveries} where ${deliveries.orderId} = ${orders.id} and ${deliveries.status} <> 'cancelled')`
          : sql`not exists (select 1 from ${deliveries} where ${deliveries.orderId} = ${orders.id})`,
      ),
    );
}
