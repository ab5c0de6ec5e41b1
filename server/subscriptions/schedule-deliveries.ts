import { and, asc, eq, lte, sql } from "drizzle-orm";
import { addDays, limaToday } from "@core/lima-dates";
import { scheduleStep } from "@core/cadence-dates";
import { cadenceOf } from "@core/delivery-cadence";
import type { Database } from "../db/client";
import { readDistrictWeekdays } from "../content/index.server";
import { deliveries, subscriptions } from "../db/schema";
import { paidPeriodsOf, placeOfDelivery } from "./paid-deliveries";
import { forEachRowOnItsOwn } from "../db/row-failures";
import { inTransaction } from "../db/transaction";
import { claimNextSlotFrom, tellRescheduledDeliveries } from "../deliveries/index.server";
import { publicSiteUrl } from "../config/env";

/** A delivery is created this many days ahead of its date, so the team can plan the route. */
export const DELIVERY_LEAD_DAYS = 7;

/**
 * Every delivery already paid for: a period pays for its months × its cadence's deliveries a month
 * (mensual monthly: one; anual monthly: twelve; semanal: four a month, decision 0097). Each is numbered per subscription and the number is unique, so a job run
 * twice or two workers create it once.
 */
export async function scheduleSubscriptionDeliveries(db: Database, now: Date, siteUrl = publicSiteUrl()): Promise<number> {
  const horizon = addDays(limaToday(now), DELIVERY_LEAD_DAYS);
  const candidates = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.status, "active"), lte(subscriptions.nextDeliveryDate, horizon)))
    .orderBy(asc(subscriptions.nextDeliveryDate));
  let created = 0;
  // Per district, window and wanted date, the date the pass last got (see claimNextSlotFrom).
  const fullBefore = new Map<string, string>();
  await forEachRowOnItsOwn(
    db,
    "subscription deliveries",
    candidates,
    (candidate) => candidate.id,
    now,
    async (candidate) => {
      // A subscription can owe several deliveries after a long pause of the job: create them in turn.
      while (await createNextDelivery(db, candidate.id, horizon, { now, siteUrl }, fullBefore)) created += 1;
    },
  );
  return created;
}

async function createNextDelivery(
  db: Database,
  subscriptionId: string,
  horizon: string,
  { now, siteUrl }: { now: Date; siteUrl: string },
  fullBefore: Map<string, string>,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [subscription] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for("update", { skipLocked: true });
    if (!subscription || subscription.status !== "active" || !subscription.nextDeliveryDate || subscription.nextDeliveryDate > horizon) return false;
    if (subscription.endsOn && subscription.nextDeliveryDate >= subscription.endsOn) return false;
    const sequence = subscription.deliveriesMade + 1;
    // Which paid period this delivery belongs to (each by its own frequency and cadence); none yet means it is not paid for.
    const place = placeOfDelivery(await paidPeriodsOf(tx, subscription), sequence);
    const period = place?.period;
    if (!place || !period?.orderId) return false;
    const days = await readDistrictWeekdays(tx, subscription.districtId);
    // Decision 0030: a closed or full date moves this delivery to the district's next weekday with
    // room; with none in sight it keeps its date (a paid delivery is never dropped) and dispatch sees
    // the day over capacity. The slot is locked after the subscription (decision 0025).
    const slot = await claimNextSlotFrom(tx, {
      districtId: subscription.districtId,
      window: subscription.deliveryWindow,
      wantedDate: subscription.nextDeliveryDate,
      districtDays: days,
      fullBefore,
    });
    const deliveryDate = slot?.date ?? subscription.nextDeliveryDate;
    const moved = deliveryDate === subscription.nextDeliveryDate ? null : `Fecha movida del ${subscription.nextDeliveryDate}: día cerrado o sin cupos`;
    const inserted = await tx
      .insert(deliveries)
      .values({
        orderId: period.orderId,
        subscriptionId: subscription.id,
        subscriptionSequence: sequence,
        districtId: subscription.districtId,
        districtName: subscription.districtName,
        address: subscription.address,
        lat: subscription.addressLat,
        lng: subscription.addressLng,
        deliveryDate,
        deliveryWindow: subscription.deliveryWindow,
        status: "pending",
        statusHistory: [{ status: "pending", timestamp: now.toISOString(), note: moved }],
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: deliveries.id, deliveryNumber: deliveries.deliveryNumber });
    // Decision 0097: the next one at the pace of this delivery's period, from the date wanted (a
    // holiday's move never shifts the weeks after it). After a period's last delivery the next
    // period is billed with the subscription's cadence, which keeps a month's anchor or none.
    const next = scheduleStep({
      periodCadence: period.cadence,
      periodDeliveries: period.deliveries,
      indexInPeriod: place.indexInPeriod,
      subscriptionCadence: cadenceOf(subscription.deliveryCadence),
      date: subscription.nextDeliveryDate,
      anchor: subscription.deliveryAnchorDate,
      districtDays: days,
    });
    await tx
      .update(subscriptions)
      .set({ deliveriesMade: sequence, nextDeliveryDate: next.date, deliveryAnchorDate: next.anchor, updatedAt: now })
      .where(and(eq(subscriptions.id, subscription.id), eq(subscriptions.deliveriesMade, sql`${subscription.deliveriesMade}`)));
    // Decision 0062: the customer expects it on the date their subscription page showed; a moved one is told, like Despacho's.
    if (moved && inserted[0]) {
      await tellRescheduledDeliveries(
        tx,
        [{ ...inserted[0], orderId: period.orderId, historyLength: 0, date: deliveryDate, deliveryWindow: subscription.deliveryWindow }],
        { now, siteUrl },
      );
    }
    return inserted.length > 0;
  });
}
