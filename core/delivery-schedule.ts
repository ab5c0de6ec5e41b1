import { addDays, isAtLeastTomorrow, isoWeekday, limaToday, weekdayNames } from "./lima-dates";

/** Offered windows (decisions.md: one source for delivery windows). */
export const deliveryWindows = {
  manana: { label: "Mañana", hours: "9:00 a. m. - 12:00 p. m." },
  tarde: { label: "Tarde", hours: "2:00 p. m. - 6:00 p. m." },
} as const;
export type DeliveryWindow = keyof typeof deliveryWindows;

/** Labels for stored windows, including the legacy 'noche' that is only displayed (spec §9). */
export const deliveryWindowLabels: Record<string, string> = {
  manana: "Mañana (9am - 12pm)",
  tarde: "Tarde (2pm - 6pm)",
  noche: "Noche (6pm - 10pm)",
};

/**
 * Each window's hours in minutes after midnight, Lima (decisions.md: manana 9:00–12:00, tarde
 * 14:00–18:00; noche 18:00–22:00 only for older data): what route planning must keep (issue 26).
 */
export const deliveryWindowMinutes: Record<string, readonly [number, number]> = {
  manana: [9 * 60, 12 * 60],
  tarde: [14 * 60, 18 * 60],
  noche: [18 * 60, 22 * 60],
};

export function deliveryWindowLabel(window: string): string {
  return deliveryWindowLabels[window] ?? window;
}

/** How far ahead a delivery may be booked: the form offers the next two, a stale form may be a week late. */
export const LATEST_BOOKING_DAYS = 30;

export interface ScheduleError {
  field: "diaHabil" | "fecha";
  message: string;
}

/**
 * Spec §5 date rules, in Lima time: a weekday the district is served on, a date from tomorrow on,
 * and the date falling on that weekday.
 */
export function deliveryScheduleError(input: { districtDays: number[]; dayNumber: number; date: string; now: Date }): ScheduleError | null {
  const { districtDays, dayNumber, date, now } = input;
  if (!districtDays.includes(dayNumber)) return { field: "diaHabil", message: "Selecciona un día habilitado" };
  if (!isAtLeastTomorrow(date, now)) return { field: "fecha", message: "Requiere mínimo 1 día de anticipación" };
  if (isoWeekday(date) !== dayNumber) {
    return { field: "fecha", message: `La fecha no coincide con el día seleccionado (${weekdayNames[dayNumber]})` };
  }
  if (date > addDays(limaToday(now), LATEST_BOOKING_DAYS)) return { field: "fecha", message: "Selecciona una fecha" };
  return null;
}
