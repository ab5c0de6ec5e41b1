/**
 * The dates the checkout offers right now (issue 10), for tests that run against the real clock:
 * from tomorrow in Lima, or the day after once it is 18:00 there, never a seeded holiday.
 */
import { seedHolidays } from "@server/db/seed/delivery-calendar-data";
import { addDays, isoWeekday, limaToday } from "~/lib/lima-dates";

const holidays = new Set(seedHolidays.map((holiday) => holiday.closedOn));

export function bookableDates(dayNumber: number, now: Date = new Date(), count = 2): string[] {
  const limaHour = Number(new Intl.DateTimeFormat("en-GB", { timeZone: "America/Lima", hour: "2-digit", hourCycle: "h23" }).format(now));
  const dates: string[] = [];
  for (let date = addDays(limaToday(now), limaHour >= 18 ? 2 : 1); dates.length < count; date = addDays(date, 1)) {
    if (isoWeekday(date) === dayNumber && !holidays.has(date)) dates.push(date);
  }
  return dates;
}
