/**
 * Business days in Peru (Ley 29571 art. 24, D.S. 011-2011-PCM): Saturdays, Sundays and national
 * holidays do not count. Which days are holidays comes from the delivery calendar (Peru's
 * national holidays of every year and staff's own `feriado` rows, core/peru-holidays.ts); these
 * functions only apply it.
 */
import { addDays, isoWeekday } from "./lima-dates";

/** Which dates are national holidays (`closedDaysLookup(rows, { holidaysOnly: true })`, or a Set in tests). */
export type HolidayLookup = { has(date: string): boolean };

/** The Libro de Reclamaciones' answer deadline: 15 business days, never extended. */
export const COMPLAINT_ANSWER_BUSINESS_DAYS = 15;

export function isBusinessDay(date: string, holidays: HolidayLookup): boolean {
  return isoWeekday(date) <= 5 && !holidays.has(date);
}

/** The `count`-th business day after `date` (the day itself never counts). */
export function addBusinessDays(date: string, count: number, holidays: HolidayLookup): string {
  let day = date;
  for (let counted = 0; counted < count;) {
    day = addDays(day, 1);
    if (isBusinessDay(day, holidays)) counted += 1;
  }
  return day;
}

/** The last day to answer a sheet filed on `filedOn` (Lima date): the count starts the day after. */
export function complaintAnswerDeadline(filedOn: string, holidays: HolidayLookup): string {
  return addBusinessDays(filedOn, COMPLAINT_ANSWER_BUSINESS_DAYS, holidays);
}

/** Business days after `today` up to and including `deadline` (0 when the deadline is today or past). */
export function businessDaysLeft(today: string, deadline: string, holidays: HolidayLookup): number {
  let left = 0;
  for (let day = addDays(today, 1); day <= deadline; day = addDays(day, 1)) {
    if (isBusinessDay(day, holidays)) left += 1;
  }
  return left;
}

export type DeadlineCountdown = { state: "open"; daysLeft: number; label: string } | { state: "today"; label: string } | { state: "overdue"; label: string };

/** The staff inbox's countdown: "Quedan 5 días hábiles", "Vence hoy", "Vencido". */
export function deadlineCountdown(today: string, deadline: string, holidays: HolidayLookup): DeadlineCountdown {
  if (today > deadline) return { state: "overdue", label: "Vencido" };
  if (today === deadline) return { state: "today", label: "Vence hoy" };
  const daysLeft = businessDaysLeft(today, deadline, holidays);
  return { state: "open", daysLeft, label: daysLeft === 1 ? "Queda 1 día hábil" : `Quedan ${daysLeft} días hábiles` };
}
