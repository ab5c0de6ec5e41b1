/**
 * "¿Te queda agua?" at each customer's pace (decision 0076): the customer's usual interval is the
 * median of the days between their one-time orders (orders on the same Lima day count once), known
 * from their second order on. Pure rules the reminders job and the staff view share.
 */
import { addDays } from "./lima-dates";

/** Intervals outside this range are not a running-out pattern (a split order, a yearly buy): no reminder. */
export const MIN_REORDER_INTERVAL_DAYS = 5;
export const MAX_REORDER_INTERVAL_DAYS = 120;
/** The reminder goes this many days before the customer usually runs out ("un día o dos antes"). */
export const REMINDER_LEAD_DAYS = 2;
/** A reminder the shop could not send in time (jobs off, feature off) still goes up to this many days after the usual day. */
export const REMINDER_GRACE_DAYS = 5;

const dayNumber = (isoDate: string) => Date.UTC(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) - 1, Number(isoDate.slice(8, 10))) / 86_400_000;

/** The median of the gaps between distinct order days, rounded to whole days; null before two distinct days. */
export function reorderIntervalDays(orderDays: readonly string[]): number | null {
  const days = [...new Set(orderDays)].sort();
  if (days.length < 2) return null;
  const gaps = days
    .slice(1)
    .map((day, index) => dayNumber(day) - dayNumber(days[index]!))
    .sort((a, b) => a - b);
  const middle = Math.floor(gaps.length / 2);
  const median = gaps.length % 2 === 1 ? gaps[middle]! : (gaps[middle - 1]! + gaps[middle]!) / 2;
  return Math.round(median);
}

export interface ReminderTiming {
  intervalDays: number;
  /** The Lima day the customer usually runs out: their last order day plus the interval. */
  runsOutOn: string;
  /** The Lima day the reminder goes. */
  remindOn: string;
  /** The last Lima day a reminder for this interval may still go. */
  lastDay: string;
}

/** When to remind a customer whose last order day and interval are these; null when the interval is not one to remind on. */
export function reminderTiming(lastOrderDay: string, intervalDays: number | null): ReminderTiming | null {
  if (intervalDays === null || intervalDays < MIN_REORDER_INTERVAL_DAYS || intervalDays > MAX_REORDER_INTERVAL_DAYS) return null;
  const runsOutOn = addDays(lastOrderDay, intervalDays);
  return { intervalDays, runsOutOn, remindOn: addDays(runsOutOn, -REMINDER_LEAD_DAYS), lastDay: addDays(runsOutOn, REMINDER_GRACE_DAYS) };
}
