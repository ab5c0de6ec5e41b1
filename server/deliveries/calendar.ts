import { asc, eq } from "drizzle-orm";
import { calendarRefusal, DEFAULT_CUTOFF_TIME } from "@core/delivery-calendar";
import { deliveryCalendarSettings, deliveryClosedDays } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

export interface DeliveryCalendar {
  /** 'HH:MM' on Lima's clock, the day before: from then on, tomorrow is no longer offered. */
  cutoffTime: string;
  /** Closed date → its name ('Navidad', 'Inventario'). */
  closedDays: Map<string, string>;
}

/** The calendar as staff set it at /admin/calendario (decision 0037: an unseeded database has the 18:00 cut-off and no closed day). */
export async function loadDeliveryCalendar(db: DatabaseOrTransaction): Promise<DeliveryCalendar> {
  const [settings] = await db
    .select({ cutoffTime: deliveryCalendarSettings.cutoffTime })
    .from(deliveryCalendarSettings)
    .where(eq(deliveryCalendarSettings.id, 1));
  const closed = await db
    .select({ date: deliveryClosedDays.closedOn, name: deliveryClosedDays.name })
    .from(deliveryClosedDays)
    .orderBy(asc(deliveryClosedDays.closedOn));
  return { cutoffTime: settings?.cutoffTime ?? DEFAULT_CUTOFF_TIME, closedDays: new Map(closed.map((row) => [row.date, row.name])) };
}

/** Why a customer cannot book `date` at `now` (cut-off passed, closed day); null when the calendar allows it. */
export async function deliveryDateRefusal(db: DatabaseOrTransaction, date: string, now: Date): Promise<string | null> {
  const calendar = await loadDeliveryCalendar(db);
  return calendarRefusal({ date, now, cutoffTime: calendar.cutoffTime, closedDays: calendar.closedDays });
}

/**
 * The national holidays (`feriado` rows) staff keep at /admin/calendario: the non-business days of
 * legal deadlines such as the Libro de Reclamaciones' 15 business days. The shop's own closed days
 * (`cierre`) are not holidays and do not stop the legal clock.
 */
export async function loadNationalHolidays(db: DatabaseOrTransaction): Promise<Set<string>> {
  const rows = await db.select({ date: deliveryClosedDays.closedOn }).from(deliveryClosedDays).where(eq(deliveryClosedDays.kind, "feriado"));
  return new Set(rows.map((row) => row.date));
}
