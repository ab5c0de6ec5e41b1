/**
 * Lima's calendar worked out for the tests without the shop's date code, so a browser test's
 * expected dates never come from the code it checks. Lima is UTC−5 all year (Peru has kept no
 * daylight saving since 1994).
 */
import { nationalHolidayOn } from "@core/peru-holidays";

const LIMA_OFFSET_MS = -5 * 3_600_000;
const DAY_MS = 86_400_000;

/** Today's date in Lima, `YYYY-MM-DD`. */
export function limaDateOf(now: Date): string {
  return new Date(now.getTime() + LIMA_OFFSET_MS).toISOString().slice(0, 10);
}

const isoWeekdayOf = (day: number) => ((new Date(day).getUTCDay() + 6) % 7) + 1;
const dateOf = (day: number) => new Date(day).toISOString().slice(0, 10);

/**
 * The dates the checkout offers right now on an ISO weekday (1 lunes … 7 domingo), for tests on the
 * real clock: from tomorrow in Lima, or the day after once it is 18:00 there (the default cut-off),
 * never a national holiday (issue 10).
 */
export function bookableDates(isoWeekday: number, now: Date = new Date(), count = 2): string[] {
  const limaNow = new Date(now.getTime() + LIMA_OFFSET_MS);
  let day = Date.parse(`${limaDateOf(now)}T00:00:00Z`) + (limaNow.getUTCHours() >= 18 ? 2 : 1) * DAY_MS;
  const dates: string[] = [];
  for (; dates.length < count; day += DAY_MS) if (isoWeekdayOf(day) === isoWeekday && nationalHolidayOn(dateOf(day)) === null) dates.push(dateOf(day));
  return dates;
}
