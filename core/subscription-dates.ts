/**
 * The calendar of a subscription (issue 5): billing every month (mensual) or every year (anual)
 * from the start date, and one delivery a month on the district's weekdays.
 */
import { deliveriesPerMonth, type DeliveryCadence } from "./delivery-cadence";
import { addDays, isoWeekday } from "./lima-dates";

/** The same day `months` later, or the month's last day when it has no such day (31 Jan → 28 Feb). */
export function addMonthsClamped(isoDate: string, months: number): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  const target = new Date(Date.UTC(year!, month! - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day!, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The billing date of period `periodNumber` (1 is the start). */
export function billingDateOfPeriod(startDate: string, frequency: "mensual" | "anual", periodNumber: number): string {
  return addMonthsClamped(startDate, (periodNumber - 1) * (frequency === "anual" ? 12 : 1));
}

/**
 * Issue 5: without a choice from the customer the next delivery is "the same weekday a month
 * later": the first day on or after the same date next month that falls on that weekday, moved on
 * to a weekday the district is served if it no longer is.
 */
export function nextMonthlyDeliveryDate(previousDate: string, districtDays: number[]): string {
  const weekday = isoWeekday(previousDate);
  let candidate = addMonthsClamped(previousDate, 1);
  candidate = addDays(candidate, (weekday - isoWeekday(candidate) + 7) % 7);
  if (districtDays.length === 0 || districtDays.includes(weekday)) return candidate;
  for (let step = 1; step <= 7; step += 1) {
    const next = addDays(candidate, step);
    if (districtDays.includes(isoWeekday(next))) return next;
  }
  return candidate;
}

/** How many deliveries one paid billing period gives: its months × the cadence's deliveries a month (decision 0097). */
export function deliveriesPerPeriod(frequency: string, cadence: DeliveryCadence = "monthly"): number {
  return (frequency === "anual" ? 12 : 1) * deliveriesPerMonth(cadence);
}
