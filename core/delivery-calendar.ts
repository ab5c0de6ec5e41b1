/**
 * The delivery calendar's pure rules (issue 10), in Lima time: the cut-off the day before and the
 * closed days. What is closed and when the cut-off falls are data (server/deliveries/calendar.ts
 * reads them); these functions only apply them, so both the checkout page and the server agree.
 */
import { addDays, formatLimaDate, limaToday, limaWallClock } from "@core/lima-dates";
import type { ClosedDaysLookup } from "@core/peru-holidays";

export const DEFAULT_CUTOFF_TIME = "18:00";

/** Minutes since midnight on Lima's clock at the instant `now`. */
export function limaMinutesOfDay(now: Date): number {
  const clock = limaWallClock(now);
  return clock.getUTCHours() * 60 + clock.getUTCMinutes();
}

/** 'HH:MM' (00:00–23:59) as minutes since midnight; null for anything else. */
export function parseCutoffTime(value: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/**
 * The first date a delivery may be booked for: tomorrow in Lima until the cut-off, the day after
 * from the cut-off on (18:00 sharp already counts as past it).
 */
export function firstBookableDate(now: Date, cutoffTime: string): string {
  const cutoff = parseCutoffTime(cutoffTime) ?? parseCutoffTime(DEFAULT_CUTOFF_TIME)!;
  return addDays(limaToday(now), limaMinutesOfDay(now) < cutoff ? 1 : 2);
}

/** Why `date` cannot be booked at `now` (cut-off or closed day), in the customer's words; null when it can. */
export function calendarRefusal(input: { date: string; now: Date; cutoffTime: string; closedDays: ClosedDaysLookup }): string | null {
  const { date, now, cutoffTime, closedDays } = input;
  const closed = closedDays.get(date);
  if (closed !== undefined) return `No repartimos el ${formatLimaDate(date)} (${closed}). Elige otra fecha.`;
  if (date === addDays(limaToday(now), 1) && date < firstBookableDate(now, cutoffTime)) {
    return `Los pedidos para mañana se reciben hasta las ${cutoffTime}. Elige otra fecha.`;
  }
  return null;
}

/** The dates from the first bookable one through `lastDate` that are not closed. */
export function openDates(input: { now: Date; cutoffTime: string; closedDays: ClosedDaysLookup; lastDate: string }): string[] {
  const dates: string[] = [];
  for (let date = firstBookableDate(input.now, input.cutoffTime); date <= input.lastDate; date = addDays(date, 1)) {
    if (!input.closedDays.has(date)) dates.push(date);
  }
  return dates;
}
