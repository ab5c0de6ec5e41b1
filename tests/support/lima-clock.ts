/**
 * Lima's calendar worked out for the tests without the shop's date code, so a browser test's
 * expected dates never come from the code it checks. Lima is UTC−5 all year (Peru has kept no
 * daylight saving since 1994).
 */
const LIMA_OFFSET_MS = -5 * 3_600_000;
const DAY_MS = 86_400_000;

/** Today's date in Lima, `YYYY-MM-DD`. */
export function limaDateOf(now: Date): string {
  return new Date(now.getTime() + LIMA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The next two dates that fall on an ISO weekday (1 lunes … 7 domingo), counted from tomorrow in Lima. */
export function nextTwoLimaDatesOnWeekday(isoWeekday: number, now: Date): string[] {
  let day = Date.parse(`${limaDateOf(now)}T00:00:00Z`) + DAY_MS;
  while (((new Date(day).getUTCDay() + 6) % 7) + 1 !== isoWeekday) day += DAY_MS;
  return [new Date(day).toISOString().slice(0, 10), new Date(day + 7 * DAY_MS).toISOString().slice(0, 10)];
}
