import { and, desc, eq, gte, inArray } from "drizzle-orm";
import { addDays, isAtLeastTomorrow, isIsoDate, isoWeekday, limaToday } from "@core/lima-dates";
import { DELIVERY_CHANGE_WINDOW_DAYS } from "@core/subscription-self-service";
import { readDistrictWeekdays } from "../../content/index.server";
import type { Database } from "../../db/client";
import { deliveries, subscriptions } from "../../db/schema";
import type { DatabaseOrTransaction } from "../../db/transaction";
import { followNextDeliveryDate, monthAnchorForNextDelivery, paidPeriodsOf, periodOfDelivery } from "../paid-deliveries";
import { datesWithRoom, deliveryDateRefusal } from "../../deliveries/index.server";
import { changeOwnedSubscription, refuse, shortDate, stateRefusal, type SelfServiceContext, type SelfServiceResult, type Subscription } from "./change";

const OPEN_DELIVERY = ["pending", "preparing", "scheduled", "shipped", "in_transit", "rescheduled"];

/**
 * The dates the next delivery (the next one not yet scheduled) can move to (issue 5): the
 * district's weekdays, from tomorrow in Lima; after a delivery already scheduled (deliveries are
 * created a week ahead for the team's route); when that delivery is not paid for yet, after the
 * billing date that pays for it; within 60 days of the first of those dates; and (issue 10) not
 * before the cut-off, not on a closed day, and with room in the subscription's window.
 */
export async function offeredDeliveryDates(tx: DatabaseOrTransaction, subscription: Subscription, now: Date): Promise<string[]> {
  const today = limaToday(now);
  const weekdays = await readDistrictWeekdays(tx, subscription.districtId);
  let earliest = addDays(today, 1);
  const [scheduled] = await tx
    .select({ date: deliveries.deliveryDate })
    .from(deliveries)
    .where(and(eq(deliveries.subscriptionId, subscription.id), gte(deliveries.deliveryDate, today), inArray(deliveries.status, OPEN_DELIVERY)))
    .orderBy(desc(deliveries.deliveryDate))
    .limit(1);
  if (scheduled && scheduled.date >= earliest) earliest = addDays(scheduled.date, 1);
  const paidFor = periodOfDelivery(await paidPeriodsOf(tx, subscription), subscription.deliveriesMade + 1) !== undefined;
  if (!paidFor && subscription.nextBillingDate && subscription.nextBillingDate >= earliest) earliest = addDays(subscription.nextBillingDate, 1);
  const latest = addDays(earliest, DELIVERY_CHANGE_WINDOW_DAYS);
  const dates: string[] = [];
  for (let date = earliest; date <= latest; date = addDays(date, 1)) {
    if (weekdays.includes(isoWeekday(date)) && date !== subscription.nextDeliveryDate) dates.push(date);
  }
  return datesWithRoom(tx, { districtId: subscription.districtId, window: subscription.deliveryWindow, dates, now });
}

/**
 * Change the next delivery date to one of the offered dates; the following ones keep its weekday:
 * a month apart (monthly), or 7 / 14 days apart within the month the new date re-anchors
 * (decision 0097), the next month counting from that anchor.
 */
export async function changeNextDeliveryDate(db: Database, input: SelfServiceContext & { date: string }): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "date", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "date");
    if (refusal) return refusal;
    if (!isIsoDate(input.date)) return refuse("Selecciona una fecha", "date");
    // Spec §5's own messages for a date too soon and a weekday the district is not served on.
    if (!isAtLeastTomorrow(input.date, input.now)) return refuse("Requiere mínimo 1 día de anticipación", "date");
    if (!(await readDistrictWeekdays(tx, subscription.districtId)).includes(isoWeekday(input.date))) return refuse("Selecciona un día habilitado", "date");
    if (input.date === subscription.nextDeliveryDate) return refuse("Esa ya es la fecha de tu próxima entrega", "date");
    const calendarError = await deliveryDateRefusal(tx, { districtId: subscription.districtId, date: input.date, now: input.now });
    if (calendarError) return refuse(calendarError, "date");
    // The place itself is claimed when the delivery is scheduled a week ahead (decision 0037).
    if (
      (await datesWithRoom(tx, { districtId: subscription.districtId, window: subscription.deliveryWindow, dates: [input.date], now: input.now })).length === 0
    ) {
      return refuse("Ya no quedan cupos para esa fecha. Elige otra.", "date");
    }
    if (!(await offeredDeliveryDates(tx, subscription, input.now)).includes(input.date)) return refuse("Elige una de las fechas ofrecidas", "date");
    const deliveryAnchorDate = await monthAnchorForNextDelivery(tx, subscription, input.date);
    await tx.update(subscriptions).set({ nextDeliveryDate: input.date, deliveryAnchorDate, updatedAt: input.now }).where(eq(subscriptions.id, subscription.id));
    await followNextDeliveryDate(tx, subscription, input.date, input.now);
    return {
      kind: "delivery_date_changed",
      description: `Próxima entrega cambiada al ${shortDate(input.date)}${subscription.nextDeliveryDate ? ` (antes: ${shortDate(subscription.nextDeliveryDate)})` : ""}.`,
      details: { previous: subscription.nextDeliveryDate, nextDeliveryDate: input.date },
    };
  });
}
