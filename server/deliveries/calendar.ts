import { eq, sql, type SQL } from "drizzle-orm";
import { calendarRefusal, DEFAULT_CUTOFF_TIME } from "@core/delivery-calendar";
import type { HolidayLookup } from "@core/business-days";
import { closedDaysLookup, type ClosedDaysLookup } from "@core/peru-holidays";
import { districtWithWeekdaysRow, readDistricts } from "../content/index.server";
import { deliveryCalendarSettings, deliveryClosedDays } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { executeByText } from "../db/prepared-statement";
import { claimRulesColumns, claimRulesFrom, type ClaimRules, type ClaimRulesRow } from "./capacity";

export interface DeliveryCalendar {
  /** The shop's cut-off: 'HH:MM' on Lima's clock, the day before: from then on, tomorrow is no longer offered. */
  shopCutoffTime: string;
  /** District id → its own cut-off set at /admin/distritos. Read them only through `cutoffFor`. */
  districtCutoffs: ReadonlyMap<number, string>;
  /** Closed date → its name ('Navidad', 'Inventario'): Peru's national holidays of every year and staff's own rows (decision 0070). */
  closedDays: ClosedDaysLookup;
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
  const own = (await readDistricts(db)).filter((row) => row.cutoffTime !== null);
  const closed = await db.select({ date: deliveryClosedDays.closedOn, kind: deliveryClosedDays.kind, name: deliveryClosedDays.name }).from(deliveryClosedDays);
  return {
    shopCutoffTime: settings?.cutoffTime ?? DEFAULT_CUTOFF_TIME,
    districtCutoffs: new Map(own.map((row) => [row.id, row.cutoffTime!])),
    closedDays: closedDaysLookup(closed),
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

interface DistrictOnDate {
  /** The whole row, with the columns `extra` asked for. */
  row: Record<string, unknown>;
  /** Null for a district id that does not exist. */
  district: { id: number; name: string; served: boolean; dayNumbers: number[] } | null;
  /** The calendar as it applies to that district on that date: its cut-off, and that date if closed. */
  calendar: DeliveryCalendar;
}

/**
 * One district and the calendar of one date, in one statement (decision 0063: placing an order read
 * the district, its weekdays and the whole calendar in five). Read without locks, like the whole
 * calendar: checkout's transaction takes the district's share lock and checks closed days again.
 */
async function readDistrictOnDate(db: DatabaseOrTransaction, districtId: number, date: string, extra: SQL = sql`null as extra`): Promise<DistrictOnDate> {
  // One text per shape (the callers' extra columns have a bounded number), sent by name (decision 0101).
  const [found] = await executeByText(
    db,
    sql`select ${extra}, s.cutoff_time as shop_cutoff,
      (select json_build_object('date', c.closed_on::text, 'kind', c.kind, 'name', c.name) from ${deliveryClosedDays} c where c.closed_on = ${date}::date) as closed_row,
      d.id, d.name, d.served, d.own_cutoff, d.day_numbers
    from (select 1) as one
    left join ${deliveryCalendarSettings} s on s.id = 1
    left join (${districtWithWeekdaysRow(districtId)}) d on true`,
  );
  type Row = {
    shop_cutoff: string | null;
    closed_row: { date: string; kind: string; name: string } | null;
    id: number | null;
    name: string | null;
    served: boolean | null;
    own_cutoff: string | null;
    day_numbers: number[] | null;
  };
  const row = found as unknown as Row;
  return {
    row,
    district: row.id === null ? null : { id: row.id, name: row.name!, served: row.served === true, dayNumbers: (row.day_numbers ?? []).map(Number) },
    calendar: {
      shopCutoffTime: row.shop_cutoff ?? DEFAULT_CUTOFF_TIME,
      districtCutoffs: new Map(row.id !== null && row.own_cutoff !== null ? [[row.id, row.own_cutoff]] : []),
      closedDays: closedDaysLookup(row.closed_row ? [row.closed_row] : []),
    },
  };
}

function refusalOn(calendar: DeliveryCalendar, input: { districtId: number; date: string; now: Date }): string | null {
  return calendarRefusal({ date: input.date, now: input.now, cutoffTime: cutoffFor(calendar, input.districtId), closedDays: calendar.closedDays });
}

/** Why a customer cannot book `date` at `now` for `districtId` (its cut-off passed, closed day); null when the calendar allows it. */
export async function deliveryDateRefusal(db: DatabaseOrTransaction, input: { districtId: number; date: string; now: Date }): Promise<string | null> {
  const { calendar } = await readDistrictOnDate(db, input.districtId, input.date);
  return refusalOn(calendar, input);
}

export interface ServedDistrictOnDate {
  id: number;
  name: string;
  dayNumbers: number[];
  calendarRefusal: string | null;
  claimRules: ClaimRules;
}

/**
 * A served district with its weekdays, why the calendar refuses `date` at `now` for it (null when
 * it allows it), and what claiming a place in `window` that date will need: what checkout reads
 * before its transaction, in one statement. `served` is null when the district is unknown or not
 * served. `alongside`: another domain's columns read in the same statement (decision 0101:
 * checkout's cart prices), returned as `row`.
 */
export async function servedDistrictOnDate(
  db: DatabaseOrTransaction,
  input: { districtId: number; date: string; window: string; now: Date },
  alongside: SQL = sql`null as alongside`,
): Promise<{ served: ServedDistrictOnDate | null; row: Record<string, unknown> }> {
  const { district, calendar, row } = await readDistrictOnDate(
    db,
    input.districtId,
    input.date,
    sql`${claimRulesColumns([{ districtId: input.districtId, date: input.date, window: input.window }])}, ${alongside}`,
  );
  if (!district?.served) return { served: null, row };
  return {
    served: {
      id: district.id,
      name: district.name,
      dayNumbers: district.dayNumbers,
      calendarRefusal: refusalOn(calendar, input),
      claimRules: claimRulesFrom(row as unknown as ClaimRulesRow, [input.date]),
    },
    row,
  };
}

/**
 * The national holidays: the non-business days of legal deadlines such as the Libro de
 * Reclamaciones' 15 business days. Peru's holidays of every year, with staff's changes at
 * /admin/calendario (a holiday added by hand, one marked as a delivery day); the shop's own closed
 * days (`cierre`) are not holidays and do not stop the legal clock.
 */
export async function loadNationalHolidays(db: DatabaseOrTransaction): Promise<HolidayLookup> {
  const rows = await db.select({ date: deliveryClosedDays.closedOn, kind: deliveryClosedDays.kind, name: deliveryClosedDays.name }).from(deliveryClosedDays);
  return closedDaysLookup(rows, { holidaysOnly: true });
}
