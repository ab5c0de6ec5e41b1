import { asc, eq, gte } from "drizzle-orm";
import { DEFAULT_CUTOFF_TIME, parseCutoffTime } from "@core/delivery-calendar";
import { isIsoDate } from "@core/lima-dates";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { deliveryCalendarSettings, deliveryCapacityDefaults, deliveryClosedDays } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { DELIVERY_WINDOWS } from "./capacity";

/** Staff's side of the delivery calendar (/admin/calendario). Every change is audited in its own transaction. */

export const MAX_WINDOW_CAPACITY = 9999;

export interface CalendarAdminView {
  cutoffTime: string;
  closedDays: { date: string; kind: string; name: string }[];
  defaults: { dayNumber: number; window: string; capacity: number | null }[];
}

/** Everything the page shows: closed days from `fromDate` on, every weekday × window (districts' own figures are at /admin/distritos). */
export async function loadCalendarForStaff(db: Database, fromDate: string): Promise<CalendarAdminView> {
  const [[settings], closedDays, defaults] = await Promise.all([
    db.select({ cutoffTime: deliveryCalendarSettings.cutoffTime }).from(deliveryCalendarSettings).where(eq(deliveryCalendarSettings.id, 1)),
    db
      .select({ date: deliveryClosedDays.closedOn, kind: deliveryClosedDays.kind, name: deliveryClosedDays.name })
      .from(deliveryClosedDays)
      .where(gte(deliveryClosedDays.closedOn, fromDate))
      .orderBy(asc(deliveryClosedDays.closedOn)),
    db.select().from(deliveryCapacityDefaults),
  ]);
  const byKey = new Map(defaults.map((row) => [`${row.dayNumber}:${row.deliveryWindow}`, row.capacity]));
  return {
    cutoffTime: settings?.cutoffTime ?? DEFAULT_CUTOFF_TIME,
    closedDays,
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

export async function addClosedDay(db: Database, actor: StaffActor, input: { date: string; kind: string; name: string }): Promise<CalendarChangeResult> {
  if (!isIsoDate(input.date)) return { ok: false, field: "date", message: "Elige una fecha" };
  if (input.kind !== "feriado" && input.kind !== "cierre") return { ok: false, field: "kind", message: "Elige feriado o cierre" };
  const name = input.name.trim();
  if (name.length === 0 || name.length > 80) return { ok: false, field: "name", message: "Escribe el motivo (hasta 80 caracteres)" };
  return inTransaction(db, async (tx) => {
    const inserted = await tx
      .insert(deliveryClosedDays)
      .values({ closedOn: input.date, kind: input.kind, name })
      .onConflictDoNothing()
      .returning({ date: deliveryClosedDays.closedOn });
    if (inserted.length === 0) return { ok: false as const, field: "date", message: "Esa fecha ya está cerrada" };
    await recordStaffAction(tx, actor, {
      action: "calendar.closed_day.add",
      entityType: "delivery_closed_day",
      entityId: input.date,
      after: { kind: input.kind, name },
    });
    return { ok: true as const };
  });
}

/** Removing a day already removed changes nothing (a double click). */
export async function removeClosedDay(db: Database, actor: StaffActor, date: string): Promise<CalendarChangeResult> {
  if (!isIsoDate(date)) return { ok: false, field: "date", message: "Elige una fecha" };
  await inTransaction(db, async (tx) => {
    const [removed] = await tx.delete(deliveryClosedDays).where(eq(deliveryClosedDays.closedOn, date)).returning();
    if (removed)
      await recordStaffAction(tx, actor, {
        action: "calendar.closed_day.remove",
        entityType: "delivery_closed_day",
        entityId: date,
        before: { kind: removed.kind, name: removed.name },
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
