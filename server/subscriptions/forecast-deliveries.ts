import { and, eq, gte, lte, sql } from "drizzle-orm";
import { scheduleStep } from "@core/cadence-dates";
import { cadenceOf, type DeliveryCadence } from "@core/delivery-cadence";
import { deliveriesPerPeriod } from "@core/subscription-dates";
import type { Database } from "../db/client";
import { readWeekdaysOfDistricts } from "../content/index.server";
import { productVariants, products, subscriptionItems, subscriptions } from "../db/schema";
import type { DayLoadLine } from "../deliveries/index.server";

/** A paid period still owing deliveries: its pace and the subscription's deliveries numbered up to its last. */
interface OwingPeriod {
  cadence: DeliveryCadence;
  deliveries: number;
  coveredEnd: number;
}

interface Walked {
  nextDeliveryDate: string;
  deliveryAnchorDate: string | null;
  deliveryCadence: string;
  frequency: string;
  pendingFrequency: string | null;
  deliveriesMade: number;
  endsOn: string | null;
}

/**
 * The dates of a subscription's deliveries not created yet, from its next one up to `to`, as the
 * delivery job will create them (decision 0097): the job's own step, each delivery at the pace of
 * the paid period it falls in, those not paid for yet at the subscription's cadence and its next
 * billing's frequency; none on or after the end of a cancellation.
 */
export function uncreatedDeliveryDates(subscription: Walked, owing: OwingPeriod[], districtDays: readonly number[], to: string): string[] {
  const subscriptionCadence = cadenceOf(subscription.deliveryCadence);
  const unpaidPeriod = deliveriesPerPeriod(subscription.pendingFrequency ?? subscription.frequency, subscriptionCadence);
  const paidUpTo = Math.max(subscription.deliveriesMade, ...owing.map((period) => period.coveredEnd));
  const dates: string[] = [];
  let date = subscription.nextDeliveryDate;
  let anchor = subscription.deliveryAnchorDate;
  for (let sequence = subscription.deliveriesMade + 1; date <= to && !(subscription.endsOn && date >= subscription.endsOn); sequence += 1) {
    dates.push(date);
    const paid = owing.find((period) => sequence > period.coveredEnd - period.deliveries && sequence <= period.coveredEnd);
    const place = paid
      ? { cadence: paid.cadence, deliveries: paid.deliveries, indexInPeriod: sequence - (paid.coveredEnd - paid.deliveries) - 1 }
      : { cadence: subscriptionCadence, deliveries: unpaidPeriod, indexInPeriod: (sequence - paidUpTo - 1) % unpaidPeriod };
    ({ date, anchor } = scheduleStep({
      periodCadence: place.cadence,
      periodDeliveries: place.deliveries,
      indexInPeriod: place.indexInPeriod,
      subscriptionCadence,
      date,
      anchor,
      districtDays,
    }));
  }
  return dates;
}

/**
 * Units of the deliveries not created yet between `from` and `to` (they are created a week ahead):
 * every one each active subscription's schedule gives in the window, from its next delivery on,
 * each at the subscription's current products. Four statements whatever the number of
 * subscriptions: the subscriptions whose next delivery falls in the window, their products, the
 * paid periods still owing them deliveries (a window sum over each one's paid periods, in the
 * database), and the districts' weekdays.
 */
export async function uncreatedDeliveryUnits(db: Database, from: string, to: string): Promise<DayLoadLine[]> {
  const inWindow = and(eq(subscriptions.status, "active"), gte(subscriptions.nextDeliveryDate, from), lte(subscriptions.nextDeliveryDate, to));
  const [rows, items, owingRows, weekdays] = await Promise.all([
    db
      .select({
        id: subscriptions.id,
        districtId: subscriptions.districtId,
        nextDeliveryDate: sql<string>`${subscriptions.nextDeliveryDate}`,
        deliveryAnchorDate: subscriptions.deliveryAnchorDate,
        deliveryCadence: subscriptions.deliveryCadence,
        frequency: subscriptions.frequency,
        pendingFrequency: subscriptions.pendingFrequency,
        deliveriesMade: subscriptions.deliveriesMade,
        endsOn: subscriptions.endsOn,
      })
      .from(subscriptions)
      .where(inWindow),
    db
      .select({
        subscriptionId: subscriptionItems.subscriptionId,
        productId: subscriptionItems.productId,
        variantId: subscriptionItems.variantId,
        title: products.title,
        variantTitle: productVariants.title,
        units: subscriptionItems.quantity,
      })
      .from(subscriptionItems)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionItems.subscriptionId))
      .innerJoin(products, eq(products.id, subscriptionItems.productId))
      .leftJoin(productVariants, eq(productVariants.id, subscriptionItems.variantId))
      .where(inWindow),
    owingPeriods(db, from, to),
    readWeekdaysOfDistricts(db),
  ]);
  const itemsOf = new Map<string, typeof items>();
  for (const item of items) itemsOf.set(item.subscriptionId, [...(itemsOf.get(item.subscriptionId) ?? []), item]);
  const lines: DayLoadLine[] = [];
  for (const subscription of rows) {
    const dates = uncreatedDeliveryDates(subscription, owingRows.get(subscription.id) ?? [], weekdays.get(subscription.districtId) ?? [], to);
    for (const { subscriptionId: _, ...item } of itemsOf.get(subscription.id) ?? []) for (const date of dates) lines.push({ date, ...item });
  }
  return lines;
}

/**
 * Per subscription whose next delivery falls in [from, to], its paid periods that still owe a
 * delivery (usually one; an annual plan's runs a year). A period pays for its months × its
 * cadence's deliveries a month, as its order was billed: the SQL twin of `deliveriesPerPeriod`.
 */
async function owingPeriods(db: Database, from: string, to: string): Promise<Map<string, OwingPeriod[]>> {
  const result = await db.execute(sql`select subscription_id, cadence, deliveries, covered_end from (
      select p.subscription_id, o.delivery_cadence as cadence, s.deliveries_made,
        (case when coalesce(o.subscription_frequency, s.frequency) = 'anual' then 12 else 1 end)
          * (case o.delivery_cadence when 'weekly' then 4 when 'biweekly' then 2 else 1 end) as deliveries,
        sum((case when coalesce(o.subscription_frequency, s.frequency) = 'anual' then 12 else 1 end)
          * (case o.delivery_cadence when 'weekly' then 4 when 'biweekly' then 2 else 1 end))
          over (partition by p.subscription_id order by p.period_number) as covered_end
      from subscription_periods p
      inner join subscriptions s on s.id = p.subscription_id
      left join orders o on o.id = p.order_id
      where p.status = 'paid' and s.status = 'active' and s.next_delivery_date between ${from}::date and ${to}::date
    ) paid
    where covered_end > deliveries_made`);
  const rows = (result as unknown as { rows: { subscription_id: string; cadence: string | null; deliveries: unknown; covered_end: unknown }[] }).rows;
  const bySubscription = new Map<string, OwingPeriod[]>();
  for (const row of rows) {
    const period = { cadence: cadenceOf(row.cadence), deliveries: Number(row.deliveries), coveredEnd: Number(row.covered_end) };
    bySubscription.set(row.subscription_id, [...(bySubscription.get(row.subscription_id) ?? []), period]);
  }
  return bySubscription;
}
