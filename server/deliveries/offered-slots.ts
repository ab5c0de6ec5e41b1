import { addDays, isoWeekday, limaToday } from "@core/lima-dates";
import { firstBookableDate, openDates } from "@core/delivery-calendar";
import { nationalHolidayOn } from "@core/peru-holidays";
import { LATEST_BOOKING_DAYS, type DeliveryWindow } from "@core/delivery-schedule";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";
import { cutoffFor, loadDeliveryCalendar } from "./calendar";
import { claimFirstSlotWithRoom, DELIVERY_WINDOWS, roomBetween } from "./capacity";

export interface OfferedDate {
  date: string;
  /** Every window of the day; a full one is shown as such and cannot be chosen. */
  windows: { window: DeliveryWindow; hasRoom: boolean }[];
}

/**
 * What a customer may book from `now` on (issue 10), per district: its weekdays, after the
 * cut-off, no closed day, and only dates with room in at least one window, up to the latest
 * booking date. `keepFullDays`: the same dates with the days whose windows are all full kept, for
 * the office's "Nuevo pedido", where staff may exceed a full window with a reason (issue 38).
 */
export async function offeredDeliverySlots(
  db: DatabaseOrTransaction,
  input: { now: Date; districts: { id: number; dayNumbers: number[] }[]; keepFullDays?: boolean },
): Promise<Record<number, OfferedDate[]>> {
  const calendar = await loadDeliveryCalendar(db);
  const lastDate = addDays(limaToday(input.now), LATEST_BOOKING_DAYS);
  // Each district from its own cut-off (decision 0053); the few distinct cut-offs are computed once each.
  const byCutoff = new Map<string, string[]>();
  const datesOf = (districtId: number) => {
    const cutoffTime = cutoffFor(calendar, districtId);
    let dates = byCutoff.get(cutoffTime);
    if (!dates) byCutoff.set(cutoffTime, (dates = openDates({ now: input.now, cutoffTime, closedDays: calendar.closedDays, lastDate })));
    return dates;
  };
  const offered: Record<number, OfferedDate[]> = {};
  const all = input.districts.flatMap((district) => datesOf(district.id)).sort();
  if (all.length === 0) return offered;
  const hasRoom = await roomBetween(db, all[0]!, all[all.length - 1]!);
  for (const district of input.districts) {
    offered[district.id] = datesOf(district.id)
      .filter((date) => district.dayNumbers.includes(isoWeekday(date)))
      .map((date) => ({ date, windows: DELIVERY_WINDOWS.map((window) => ({ window, hasRoom: hasRoom(district.id, date, window) })) }))
      .filter((day) => input.keepFullDays === true || day.windows.some((window) => window.hasRoom));
  }
  return offered;
}

/** The dates a district is offered on, for one window (subscription date changes). */
export async function datesWithRoom(db: DatabaseOrTransaction, input: { districtId: number; window: string; dates: string[]; now: Date }): Promise<string[]> {
  if (input.dates.length === 0) return [];
  const calendar = await loadDeliveryCalendar(db);
  const open = new Set(
    openDates({
      now: input.now,
      cutoffTime: cutoffFor(calendar, input.districtId),
      closedDays: calendar.closedDays,
      lastDate: input.dates[input.dates.length - 1]!,
    }),
  );
  const sorted = [...input.dates].sort();
  const hasRoom = await roomBetween(db, sorted[0]!, sorted[sorted.length - 1]!);
  return input.dates.filter((date) => open.has(date) && hasRoom(input.districtId, date, input.window));
}

/** How far a system-scheduled delivery may be moved on before we stop looking (decision 0037). */
export const MAX_POSTPONE_DAYS = 60;

/**
 * Claims a place for a delivery the shop schedules itself (a subscription's monthly one): the
 * wanted date when it is open and has room, else the next of the district's weekdays that does
 * (decision 0037), found by one query (`claimFirstSlotWithRoom`). Null when nothing within
 * MAX_POSTPONE_DAYS has room.
 *
 * `fullBefore` is a job pass's memory: for each district, window and wanted date, the date its
 * last claim got. Every date before it was full then, and places only come back when a delivery
 * is cancelled, so the next search starts there instead of counting the full days again (with
 * thousands wanting one day, that count grew with the square of their number). A place freed
 * during the pass may go unused by it; a claim is still always counted under its slot's lock.
 */
export async function claimNextSlotFrom(
  tx: Transaction,
  input: { districtId: number; window: string; wantedDate: string; districtDays: number[]; fullBefore?: Map<string, string> },
): Promise<{ date: string } | null> {
  const key = `${input.districtId}|${input.window}|${input.wantedDate}`;
  const known = input.fullBefore?.get(key);
  const claimed = await claimFirstSlotWithRoom(tx, {
    districtId: input.districtId,
    window: input.window,
    from: known && known > input.wantedDate ? known : input.wantedDate,
    anyWeekdayOn: input.wantedDate,
    last: addDays(input.wantedDate, MAX_POSTPONE_DAYS),
    weekdays: input.districtDays,
  });
  if (claimed) input.fullBefore?.set(key, claimed.date);
  return claimed;
}

/** Why a date of a district's weekdays is not offered (issue 41), in the customer's words. */
export interface MissedDate {
  date: string;
  reason: string;
}

/**
 * The dates of each district's weekdays, from tomorrow (Lima) for `days` days, that the checkout
 * does not offer, each with why (issue 41: a missing date explains itself): the cut-off for
 * tomorrow passed, a holiday or a closure of the shop, or every window full. Same rules as
 * `offeredDeliverySlots`, read the same way.
 */
export async function missedDeliveryDates(
  db: DatabaseOrTransaction,
  input: { now: Date; districts: { id: number; dayNumbers: number[] }[]; days: number },
): Promise<Record<number, MissedDate[]>> {
  const calendar = await loadDeliveryCalendar(db);
  const tomorrow = addDays(limaToday(input.now), 1);
  const last = addDays(tomorrow, input.days - 1);
  const hasRoom = await roomBetween(db, tomorrow, last);
  const missed: Record<number, MissedDate[]> = {};
  for (const district of input.districts) {
    const cutoffTime = cutoffFor(calendar, district.id);
    const firstBookable = firstBookableDate(input.now, cutoffTime);
    const rows: MissedDate[] = [];
    for (let date = tomorrow; date <= last; date = addDays(date, 1)) {
      if (!district.dayNumbers.includes(isoWeekday(date))) continue;
      const closed = calendar.closedDays.get(date);
      const reason =
        closed !== undefined
          ? nationalHolidayOn(date) === closed
            ? `feriado (${closed})`
            : `cerrado (${closed})`
          : date < firstBookable
            ? `cerrado: pasó la hora de corte (${cutoffTime})`
            : DELIVERY_WINDOWS.some((window) => hasRoom(district.id, date, window))
              ? null
              : "sin cupos";
      if (reason) rows.push({ date, reason });
    }
    missed[district.id] = rows;
  }
  return missed;
}
