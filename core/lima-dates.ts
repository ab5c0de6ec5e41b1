/**
 * Calendar dates in Lima. A date is a `YYYY-MM-DD` string computed in America/Lima, whatever the
 * server's or the browser's own time zone (decisions.md: Money, time, locale).
 */
export const LIMA_TIME_ZONE = "America/Lima";

/** Lima keeps UTC−5 all year: Peru has had no daylight saving time since 1994 (see limaDayStart). */
const LIMA_OFFSET_MS = 5 * 3_600_000;

/**
 * Today's date in Lima at the instant `now`. Arithmetic rather than an Intl.DateTimeFormat with a
 * time zone: the first such format a page builds loads the browser's zone data, tens of
 * milliseconds of a phone's start-up (issue 26); tests/unit/lima-dates-and-schedule.test.ts holds
 * it to Intl's answer for America/Lima.
 */
export function limaToday(now: Date): string {
  return limaWallClock(now).toISOString().slice(0, 10);
}

/** The instant `now` shifted so that its UTC fields read Lima's wall clock (date, hours, minutes). */
export function limaWallClock(now: Date): Date {
  return new Date(now.getTime() - LIMA_OFFSET_MS);
}

export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split("-").map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
}

export function addDays(isoDate: string, days: number): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return new Date(Date.UTC(year!, month! - 1, day! + days)).toISOString().slice(0, 10);
}

/** 1 = lunes … 7 = domingo (spec §5: weekday 7 is Sunday). */
export function isoWeekday(isoDate: string): number {
  const [year, month, day] = isoDate.split("-").map(Number);
  const weekday = new Date(Date.UTC(year!, month! - 1, day!)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

export const weekdayNames: Record<number, string> = {
  1: "Lunes",
  2: "Martes",
  3: "Miércoles",
  4: "Jueves",
  5: "Viernes",
  6: "Sábado",
  7: "Domingo",
};

/**
 * Spec §5: the next two dates of the chosen weekday starting tomorrow in Lima, within a 730-day
 * scan (the scan only matters for a weekday number outside 1–7, which finds nothing).
 */
export function nextDeliveryDates(dayNumber: number, now: Date, count = 2): string[] {
  const dates: string[] = [];
  let candidate = addDays(limaToday(now), 1);
  for (let scanned = 0; scanned < 730 && dates.length < count; scanned += 1) {
    if (isoWeekday(candidate) === dayNumber) dates.push(candidate);
    candidate = addDays(candidate, 1);
  }
  return dates;
}

/** Spec §5: a delivery needs at least one day's notice, counted in Lima. */
export function isAtLeastTomorrow(isoDate: string, now: Date): boolean {
  return isoDate > limaToday(now);
}

/**
 * One formatter per option set and time zone, built on first use: building an Intl.DateTimeFormat
 * costs far more than formatting with it (a renewal run formats a date per confirmation e-mail).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function spanishFormat(options: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  const key = `${timeZone} ${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("es-PE", { ...options, timeZone });
    formatters.set(key, format);
  }
  return format;
}

const LONG_DATE: Intl.DateTimeFormatOptions = { weekday: "long", day: "numeric", month: "long" };
const WEEKDAYS = ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"];
const MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "setiembre", "octubre", "noviembre", "diciembre"];

const isLongDate = (options: Intl.DateTimeFormatOptions) =>
  options === LONG_DATE || (Object.keys(options).length === 3 && options.weekday === "long" && options.day === "numeric" && options.month === "long");

/**
 * 'martes, 24 de noviembre' for a `YYYY-MM-DD`. The default form is written out (it is on the
 * driver's route and the storefront's delivery dates, and building es-PE's date format costs a
 * phone's start-up; tests hold it to Intl's output); other forms go through Intl.
 */
export function formatLimaDate(isoDate: string, options: Intl.DateTimeFormatOptions = LONG_DATE): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  if (isLongDate(options)) return `${WEEKDAYS[date.getUTCDay()]}, ${date.getUTCDate()} de ${MONTHS[date.getUTCMonth()]}`;
  return spanishFormat(options, "UTC").format(date);
}

/** An instant (a UTC timestamp) as Lima's clock shows it: '24 nov. 2026, 10:00' by default. */
export function formatLimaInstant(
  instant: string | Date,
  options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
): string {
  return spanishFormat(options, LIMA_TIME_ZONE).format(new Date(instant));
}

/** The instant a Lima calendar day starts: Lima has no daylight saving, so always 05:00 UTC. */
export function limaDayStart(isoDate: string): Date {
  return new Date(`${isoDate}T05:00:00.000Z`);
}
