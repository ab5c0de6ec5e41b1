import { asc, eq, isNotNull } from "drizzle-orm";
import { calendarRefusal, DEFAULT_CUTOFF_TIME } from "@core/delivery-calendar";
import { deliveryCalendarSettings, deliveryClosedDays, districts } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

export interface DeliveryCalendar {
  /** The shop's cut-off: 'HH:MM' on Lima's clock, the day before: from then on, tomorrow is no longer offered. */
  shopCutoffTime: string;
  /** District id → its own cut-off set at /admin/distritos. Read them only through `cutoffFor`. */
  districtCutoffs: ReadonlyMap<number, string>;
  /** Closed date → its name ('Navidad', 'Inventario'). */
  closedDays: Map<string, string>;
}

/**
 * The calendar as staff set it at /admin/calendario and /admin/distritos (decision 0037: an
 * unseeded database has the 18:00 cut-off and no closed day).
 */
export async function loadDeliveryCalendar(db: DatabaseOrTransaction): Promise<DeliveryCalendar> {
  const [settings] = await db
    .select({ cutoffTime: deliveryCalendarSettings.cutoffTime })
    .from(deliveryCalendarSettings)
    .where(eq(deliveryCalendarSettings.id, 1));
  const own = await db.select({ id: districts.id, cutoffTime: districts.cutoffTime }).from(districts).where(isNotNull(districts.cutoffTime));
  const closed = await db
    .select({ date: deliveryClosedDays.closedOn, name: deliveryClosedDays.name })
    .from(deliveryClosedDays)
    .orderBy(asc(deliveryClosedDays.closedOn));
  return {
    shopCutoffTime: settings?.cutoffTime ?? DEFAULT_CUTOFF_TIME,
    districtCutoffs: new Map(own.map((row) => [row.id, row.cutoffTime!])),
    closedDays: new Map(closed.map((row) => [row.date, row.name])),
  };
}

/**
 * The one place that decides which cut-off a delivery to `districtId` is held to: the district's
 * own (decision 0053) or else the shop's. Checkout offers and placing, and subscription date
 * changes, all come through here.
 */
export function cutoffFor(calendar: DeliveryCalendar, districtId: number): string {
  return calendar.districtCutoffs.get(districtId) ?? calendar.shopCutoffTime;
}

/** Why a customer cannot book `date` at `now` for `districtId` (its cut-off passed, closed day); null when the calendar allows it. */
export async function deliveryDateRefusal(db: DatabaseOrTransaction, input: { districtId: number; date: string; now: Date }): Promise<string | null> {
  const calendar = await loadDeliveryCalendar(db);
  return calendarRefusal({ date: input.date, now: input.now, cutoffTime: cutoffFor(calendar, input.districtId), closedDays: calendar.closedDays });
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
