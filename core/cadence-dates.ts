/**
 * The dates of a subscription's deliveries by cadence (decision 0097). Monthly keeps decision
 * 0023's rule (the same weekday a month later). Weekly and every two weeks never chain 7 or 14
 * days on end, which would run ahead of monthly billing (4 × 7 = 28 days): each month of
 * deliveries counts from an anchor day, the customer's weekday on or after it, then every 7 or 14
 * days; the next month counts from the anchor a month later. A month with a fifth such weekday
 * has a week without delivery, not paid for.
 */
import { daysBetweenDeliveries, deliveriesPerMonth, type DeliveryCadence } from "./delivery-cadence";
import { addDays, isoWeekday } from "./lima-dates";
import { addMonthsClamped, nextMonthlyDeliveryDate } from "./subscription-dates";

/** The first date on or after `from` that falls on `weekday` (1 = lunes … 7 = domingo). */
export function onOrAfterWeekday(from: string, weekday: number): string {
  return addDays(from, (weekday - isoWeekday(from) + 7) % 7);
}

/** `date` itself when the district is served that weekday (or its weekdays are unknown), else its next served day. */
function servedOnOrAfter(date: string, districtDays: readonly number[]): string {
  if (districtDays.length === 0) return date;
  for (let step = 0; step < 7; step += 1) {
    const candidate = addDays(date, step);
    if (districtDays.includes(isoWeekday(candidate))) return candidate;
  }
  return date;
}

/** One month of deliveries from its anchor: the weekday on or after it, then every 7 or 14 days (monthly: the one). */
export function monthDeliveryDates(anchor: string, weekday: number, cadence: DeliveryCadence): string[] {
  const first = onOrAfterWeekday(anchor, weekday);
  if (cadence === "monthly") return [first];
  const step = daysBetweenDeliveries(cadence);
  return Array.from({ length: deliveriesPerMonth(cadence) }, (_, index) => addDays(first, index * step));
}

/**
 * The anchor of the month a delivery wanted on `date` belongs to, when it is number
 * `indexInPeriod` (0-based) of its period's deliveries: its place in the month counts back to the
 * month's first delivery, which is where the month counts from. A new date the customer chooses
 * («Cambiar fecha», a resume) re-anchors the month here, so the deliveries after it keep 7 or 14
 * days apart until the month's run ends and the next month counts from this one (decision 0097).
 * Monthly keeps no anchor.
 */
export function monthAnchorAt(input: { cadence: DeliveryCadence; date: string; indexInPeriod: number }): string | null {
  if (input.cadence === "monthly") return null;
  const position = input.indexInPeriod % deliveriesPerMonth(input.cadence);
  return addDays(input.date, -position * daysBetweenDeliveries(input.cadence));
}

export interface NextDelivery {
  date: string;
  /** The anchor of the month the next delivery belongs to; null for monthly (no anchor kept). */
  anchor: string | null;
}

/**
 * The delivery after the one wanted on `date`, which is number `indexInPeriod` (0-based) of the
 * deliveries its billing period paid for. The nominal date counts, never the date a closed or
 * full day moved it to, so a holiday does not shift the weeks after it. A missing anchor (the
 * subscription switched from monthly) is the month's first delivery. The next month never starts
 * within a week of the last delivery: a stale anchor (a pause, a new date) catches up by months.
 */
export function nextCadenceDelivery(input: {
  cadence: DeliveryCadence;
  date: string;
  indexInPeriod: number;
  anchor: string | null;
  districtDays: readonly number[];
}): NextDelivery {
  const { cadence, date, districtDays } = input;
  if (cadence === "monthly") return { date: nextMonthlyDeliveryDate(date, [...districtDays]), anchor: null };
  const step = daysBetweenDeliveries(cadence);
  const count = deliveriesPerMonth(cadence);
  const position = input.indexInPeriod % count;
  const anchor = input.anchor ?? monthAnchorAt(input) ?? date;
  if (position < count - 1) return { date: servedOnOrAfter(addDays(date, step), districtDays), anchor };
  const weekday = isoWeekday(date);
  for (let months = 1; months <= 24; months += 1) {
    const nextAnchor = addMonthsClamped(anchor, months);
    const first = onOrAfterWeekday(nextAnchor, weekday);
    if (first >= addDays(date, 7)) return { date: servedOnOrAfter(first, districtDays), anchor: nextAnchor };
  }
  return { date: servedOnOrAfter(addDays(date, 7), districtDays), anchor: date };
}

/**
 * The delivery job's step after the delivery wanted on `date`, number `indexInPeriod` of a period
 * of `periodDeliveries` billed at `periodCadence`: the next date at that period's pace and the
 * anchor to keep. After a period's last delivery the next period is billed at the subscription's
 * cadence, which keeps a month's anchor or none (monthly). The job and the staff forecast both walk
 * a subscription's deliveries with this one step.
 */
export function scheduleStep(input: {
  periodCadence: DeliveryCadence;
  periodDeliveries: number;
  indexInPeriod: number;
  subscriptionCadence: DeliveryCadence;
  date: string;
  anchor: string | null;
  districtDays: readonly number[];
}): { date: string; anchor: string | null } {
  const next = nextCadenceDelivery({
    cadence: input.periodCadence,
    date: input.date,
    indexInPeriod: input.indexInPeriod,
    anchor: input.anchor,
    districtDays: input.districtDays,
  });
  const cadenceAfter = input.indexInPeriod === input.periodDeliveries - 1 ? input.subscriptionCadence : input.periodCadence;
  return { date: next.date, anchor: cadenceAfter === "monthly" ? null : (next.anchor ?? next.date) };
}
