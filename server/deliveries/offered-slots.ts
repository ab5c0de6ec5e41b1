import { addDays, isoWeekday, limaToday } from "@core/lima-dates";
import { openDates } from "@core/delivery-calendar";
import { LATEST_BOOKING_DAYS, type DeliveryWindow } from "@core/delivery-schedule";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";
import { cutoffFor, loadDeliveryCalendar } from "./calendar";
import { claimSlot, DELIVERY_WINDOWS, roomBetween, type SlotClaim } from "./capacity";

export interface OfferedDate {
  date: string;
  /** Every window of the day; a full one is shown as such and cannot be chosen. */
  windows: { window: DeliveryWindow; hasRoom: boolean }[];
}

/**
 * What a customer may book from `now` on (issue 10), per district: its weekdays, after the
 * cut-off, no closed day, and only dates with room in at least one window, up to the latest
 * booking date.
 */
export async function offeredDeliverySlots(
  db: DatabaseOrTransaction,
  input: { now: Date; districts: { id: number; dayNumbers: number[] }[] },
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
      .filter((day) => day.windows.some((window) => window.hasRoom));
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
 * (decision 0037). Slots are locked in ascending date order, as decision 0025 asks. Null when
 * nothing within MAX_POSTPONE_DAYS has room.
 */
export async function claimNextSlotFrom(
  tx: Transaction,
  input: { districtId: number; window: string; wantedDate: string; districtDays: number[] },
): Promise<{ date: string } | null> {
  for (let step = 0; step <= MAX_POSTPONE_DAYS; step += 1) {
    const date = addDays(input.wantedDate, step);
    if (step > 0 && input.districtDays.length > 0 && !input.districtDays.includes(isoWeekday(date))) continue;
    const claim: SlotClaim = await claimSlot(tx, { districtId: input.districtId, date, window: input.window });
    if (claim.ok) return { date };
  }
  return null;
}
