import { and, asc, eq, gte, lte } from "drizzle-orm";
import { DEFAULT_CUTOFF_TIME, parseCutoffTime } from "@core/delivery-calendar";
import { addDays, isIsoDate } from "@core/lima-dates";
import { closedDaysLookup, nationalHolidayOn, nationalHolidaysBetween, OPEN_ON_HOLIDAY } from "@core/peru-holidays";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { deliveryCalendarSettings, deliveryCapacityDefaults, deliveryClosedDays } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { DELIVERY_WINDOWS } from "./capacity";

/** Staff's side of the delivery calendar (/admin/calendario). Every change is audited in its own transaction. */

export const MAX_WINDOW_CAPACITY = 9999;

export interface CalendarAdminView {
  cutoffTime: string;
  /** The last date shown: the page covers twelve months from today, whatever the year. */
  until: string;
  /** `national`: one of Peru's holidays of every year (decision 0070); else a row staff added. */
  closedDays: { date: string; kind: string; name: string; national: boolean }[];
  /** National holidays staff marked as delivery days, to close again. */
  openHolidays: { date: string; name: string }[];
  defaults: { dayNumber: number; window: string; capacity: number | null }[];
}

/** The day before the same date a year later: twelve months from `date` (29 February counts to 28 February). */
export function twelveMonthsFrom(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  return addDays(new Date(Date.UTC(year! + 1, month! - 1, day!)).toISOString().slice(0, 10), -1);
}

/**
 * Everything the page shows: the closed days of the twelve months from `fromDate` (Peru's national
 * holidays worked out for those months, and staff's own rows), every weekday × window (districts'
 * own figures are at /admin/distritos).
 */
export async function loadCalendarForStaff(db: Database, fromDate: string): Promise<CalendarAdminView> {
  const until = twelveMonthsFrom(fromDate);
  const [[settings], rows, defaults] = await Promise.all([
    db.select({ cutoffTime: deliveryCalendarSettings.cutoffTime }).from(deliveryCalendarSettings).where(eq(deliveryCalendarSettings.id, 1)),
    db
      .select({ date: deliveryClosedDays.closedOn, kind: deliveryClosedDays.kind, name: deliveryClosedDays.name })
      .from(deliveryClosedDays)
      .where(and(gte(deliveryClosedDays.closedOn, fromDate), lte(deliveryClosedDays.closedOn, until)))
      .orderBy(asc(deliveryClosedDays.closedOn)),
    db.select().from(deliveryCapacityDefaults),
  ]);
  const byKey = new Map(defaults.map((row) => [`${row.dayNumber}:${row.deliveryWindow}`, row.capacity]));
  const own = new Set(rows.map((row) => row.date));
  const closedDays = [
    ...rows.filter((row) => row.kind !== OPEN_ON_HOLIDAY).map((row) => ({ ...row, national: false })),
    ...nationalHolidaysBetween(fromDate, until)
      .filter((holiday) => !own.has(holiday.date))
      .map((holiday) => ({ date: holiday.date, kind: "feriado", name: holiday.name, national: true })),
  ].sort((a, b) => a.date.localeCompare(b.date));
  return {
    cutoffTime: settings?.cutoffTime ?? DEFAULT_CUTOFF_TIME,
    until,
    closedDays,
    openHolidays: rows.filter((row) => row.kind === OPEN_ON_HOLIDAY).map(({ date, name }) => ({ date, name })),
    defaults: [1, 2, 3, 4, 5, 6, 7].flatMap((dayNumber) =>
      DELIVERY_WINDOWS.map((window) => ({ dayNumber, window, capacity: byKey.get(`${dayNumber}:${window}`) ?? null })),
    ),
  };
}

export type CalendarChangeResult = { ok: true } | { ok: false; field: string; message: string };

export async function setCutoffTime(db: Database, actor: StaffActor, cutoffTime: string, now: Date): Promise<CalendarChangeResult> {
  if (parseCutoffTime(cutoffTime) === null) return { ok: false, field: "cutoffTime", message: "Escribe la hora como HH:MM (por ejemplo 18:00)" };
  await inTransaction(db, async (tx) => {
    const [before] = await tx.select().from(deliveryCalendarSettings).where(eq(deliveryCalendarSettings.id, 1)).for("update");
    if (before?.cutoffTime === cutoffTime) return;
    await tx
      .insert(deliveryCalendarSettings)
      .values({ id: 1, cutoffTime, updatedAt: now })
      .onConflictDoUpdate({ target: deliveryCalendarSettings.id, set: { cutoffTime, updatedAt: now } });
    await recordStaffAction(tx, actor, {
      action: "calendar.cutoff",
      entityType: "delivery_calendar",
      entityId: "cutoff",
      before: { cutoffTime: before?.cutoffTime ?? null },
      after: { cutoffTime },
    });
  });
  return { ok: true };
}

/**
 * Closes a date: the shop's own closure (`cierre`) or a holiday added by hand (`feriado`, one a new
 * law declares). A national holiday is already closed; one staff had opened is closed again with
 * the new reason.
 */
export async function addClosedDay(db: Database, actor: StaffActor, input: { date: string; kind: string; name: string }): Promise<CalendarChangeResult> {
  if (!isIsoDate(input.date)) return { ok: false, field: "date", message: "Elige una fecha" };
  if (input.kind !== "feriado" && input.kind !== "cierre") return { ok: false, field: "kind", message: "Elige feriado o cierre" };
  const name = input.name.trim();
  if (name.length === 0 || name.length > 80) return { ok: false, field: "name", message: "Escribe el motivo (hasta 80 caracteres)" };
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(deliveryClosedDays).where(eq(deliveryClosedDays.closedOn, input.date)).for("update");
    const closed = closedDaysLookup(row ? [{ date: row.closedOn, kind: row.kind, name: row.name }] : []).get(input.date);
    if (closed !== undefined) return { ok: false as const, field: "date", message: `Esa fecha ya está cerrada (${closed})` };
    const values = { closedOn: input.date, kind: input.kind, name };
    // Two staff closing the same date at once: the second finds the first's row and changes nothing.
    const saved = row
      ? await tx.update(deliveryClosedDays).set(values).where(eq(deliveryClosedDays.closedOn, input.date)).returning({ date: deliveryClosedDays.closedOn })
      : await tx.insert(deliveryClosedDays).values(values).onConflictDoNothing().returning({ date: deliveryClosedDays.closedOn });
    if (saved.length === 0) return { ok: false as const, field: "date", message: "Esa fecha ya está cerrada" };
    await recordStaffAction(tx, actor, {
      action: "calendar.closed_day.add",
      entityType: "delivery_closed_day",
      entityId: input.date,
      ...(row ? { before: { kind: row.kind, name: row.name } } : {}),
      after: { kind: input.kind, name },
    });
    return { ok: true as const };
  });
}

/**
 * Opens a closed date: staff's own row goes; a national holiday gets an `abierto` row, so the shop
 * delivers that one date (a holiday the law moved or removed). Removing a day already removed
 * changes nothing (a double click).
 */
export async function removeClosedDay(db: Database, actor: StaffActor, date: string): Promise<CalendarChangeResult> {
  if (!isIsoDate(date)) return { ok: false, field: "date", message: "Elige una fecha" };
  await inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(deliveryClosedDays).where(eq(deliveryClosedDays.closedOn, date)).for("update");
    if (row?.kind === OPEN_ON_HOLIDAY) return;
    const holiday = nationalHolidayOn(date);
    if (row) {
      if (holiday === null) await tx.delete(deliveryClosedDays).where(eq(deliveryClosedDays.closedOn, date));
      else await tx.update(deliveryClosedDays).set({ kind: OPEN_ON_HOLIDAY, name: holiday }).where(eq(deliveryClosedDays.closedOn, date));
    } else if (holiday === null) return;
    else {
      const opened = await tx.insert(deliveryClosedDays).values({ closedOn: date, kind: OPEN_ON_HOLIDAY, name: holiday }).onConflictDoNothing().returning();
      if (opened.length === 0) return;
    }
    await recordStaffAction(tx, actor, {
      action: "calendar.closed_day.remove",
      entityType: "delivery_closed_day",
      entityId: date,
      before: row ? { kind: row.kind, name: row.name } : { kind: "feriado", name: holiday, national: true },
    });
  });
  return { ok: true };
}

/** Closes again a national holiday staff had opened (their `abierto` row goes); nothing when it is not open. */
export async function restoreNationalHoliday(db: Database, actor: StaffActor, date: string): Promise<CalendarChangeResult> {
  if (!isIsoDate(date)) return { ok: false, field: "date", message: "Elige una fecha" };
  await inTransaction(db, async (tx) => {
    const [removed] = await tx
      .delete(deliveryClosedDays)
      .where(and(eq(deliveryClosedDays.closedOn, date), eq(deliveryClosedDays.kind, OPEN_ON_HOLIDAY)))
      .returning();
    if (removed)
      await recordStaffAction(tx, actor, {
        action: "calendar.closed_day.add",
        entityType: "delivery_closed_day",
        entityId: date,
        before: { kind: OPEN_ON_HOLIDAY, name: removed.name },
        after: { kind: "feriado", name: removed.name, national: true },
      });
  });
  return { ok: true };
}

function capacityError(value: number): string | null {
  return Number.isInteger(value) && value >= 0 && value <= MAX_WINDOW_CAPACITY ? null : `Escribe un número entero de 0 a ${MAX_WINDOW_CAPACITY}`;
}

/** The shop-wide places per weekday and window, all at once (one audit entry per figure that changed). */
export async function setDefaultCapacities(
  db: Database,
  actor: StaffActor,
  rows: { dayNumber: number; window: string; capacity: number }[],
): Promise<CalendarChangeResult> {
  for (const row of rows) {
    const error = capacityError(row.capacity);
    if (error || row.dayNumber < 1 || row.dayNumber > 7 || !DELIVERY_WINDOWS.includes(row.window as never))
      return { ok: false, field: `capacity-${row.dayNumber}-${row.window}`, message: error ?? "Valor no válido" };
  }
  await inTransaction(db, async (tx) => {
    const current = await tx.select().from(deliveryCapacityDefaults).for("update");
    const before = new Map(current.map((row) => [`${row.dayNumber}:${row.deliveryWindow}`, row.capacity]));
    for (const row of [...rows].sort((a, b) => a.dayNumber - b.dayNumber || a.window.localeCompare(b.window))) {
      const previous = before.get(`${row.dayNumber}:${row.window}`) ?? null;
      if (previous === row.capacity) continue;
      await tx
        .insert(deliveryCapacityDefaults)
        .values({ dayNumber: row.dayNumber, deliveryWindow: row.window, capacity: row.capacity })
        .onConflictDoUpdate({ target: [deliveryCapacityDefaults.dayNumber, deliveryCapacityDefaults.deliveryWindow], set: { capacity: row.capacity } });
      await recordStaffAction(tx, actor, {
        action: "calendar.capacity.default",
        entityType: "delivery_capacity",
        entityId: `${row.dayNumber}:${row.window}`,
        before: { capacity: previous },
        after: { capacity: row.capacity },
      });
    }
  });
  return { ok: true };
}
