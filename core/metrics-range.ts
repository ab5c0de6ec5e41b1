import { addDays, isIsoDate, limaToday } from "./lima-dates";

/** A closed range of Lima calendar dates, both ends included. */
export interface MetricsRange {
  from: string;
  to: string;
}

/** The default range: the last 30 Lima days, today included (decision 0052-business-metrics). */
export const DEFAULT_RANGE_DAYS = 30;
/** A year and a day at most, so one page never asks PostgreSQL for more than a year of days. */
export const MAX_RANGE_DAYS = 366;

export type MetricsRangeResult =
  | { ok: true; range: MetricsRange; raw: { desde: string; hasta: string } }
  | { ok: false; raw: { desde: string; hasta: string }; errors: { desde?: string; hasta?: string } };

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * `?desde=&hasta=` of /admin/metricas and its CSV export. Missing ends take the default (the last
 * 30 days up to Lima's today); a typed value that is not a date, a range that ends before it starts
 * or one longer than MAX_RANGE_DAYS is refused with a Spanish message, keeping what was typed.
 */
export function parseMetricsRange(params: URLSearchParams, now: Date): MetricsRangeResult {
  const raw = { desde: (params.get("desde") ?? "").trim().slice(0, 40), hasta: (params.get("hasta") ?? "").trim().slice(0, 40) };
  const errors: { desde?: string; hasta?: string } = {};
  if (raw.desde && !isIsoDate(raw.desde)) errors.desde = "Usa una fecha válida (AAAA-MM-DD)";
  if (raw.hasta && !isIsoDate(raw.hasta)) errors.hasta = "Usa una fecha válida (AAAA-MM-DD)";
  if (errors.desde || errors.hasta) return { ok: false, raw, errors };
  const to = raw.hasta || (raw.desde ? addDays(raw.desde, DEFAULT_RANGE_DAYS - 1) : limaToday(now));
  const from = raw.desde || addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (from > to) return { ok: false, raw, errors: { hasta: "La fecha final es anterior a la inicial" } };
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) return { ok: false, raw, errors: { hasta: `Elige un rango de ${MAX_RANGE_DAYS} días como máximo` } };
  return { ok: true, range: { from, to }, raw: { desde: from, hasta: to } };
}

/** Every Lima date of the range, in order (the charts show the days without sales as zero). */
export function datesOfRange(range: MetricsRange): string[] {
  const days: string[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The Monday of the ISO week a date falls in (PostgreSQL's date_trunc('week') agrees). */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** The Mondays of the weeks the range touches (the first and last may be partial weeks). */
export function weeksOfRange(range: MetricsRange): string[] {
  const weeks: string[] = [];
  for (let monday = mondayOf(range.from); monday <= range.to; monday = addDays(monday, 7)) weeks.push(monday);
  return weeks;
}
