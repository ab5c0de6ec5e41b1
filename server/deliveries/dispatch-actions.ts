import { claimSlots } from "./capacity";
import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { deliveryScheduleError, deliveryWindowLabel, deliveryWindows } from "@core/delivery-schedule";
import { deliveryStatusLabel } from "@core/delivery-labels";
import { isoWeekday } from "@core/lima-dates";
import { recordStaffActions, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { readWeekdaysOfDistricts } from "../content/index.server";
import { deliveries, orders, users } from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { deliveryPath, isDeliveryStatus, type DeliveryStatus } from "./delivery-status";
import { compareStops, dispatchableOrder } from "./dispatch-scope";
import { deliveryToMoveColumns, moveDeliveries } from "./move-deliveries";
import { tellRescheduledDeliveries } from "./rescheduled-email";
import { transitionDeliveries } from "./transition";
import { retimeDriverDays } from "./route-plan";

/** A bulk action refused as a whole, with the Spanish reason staff see; nothing was written. */
export class DispatchRefusedError extends Error {
  override name = "DispatchRefusedError";
}

export interface DispatchActionResult {
  /** Deliveries the action changed (each got its history entry and its audit row). */
  changed: number;
  /** Deliveries already as asked: a repeated request, left alone. */
  unchanged: number;
}

/** The most deliveries one bulk action takes (a whole busy day fits). */
export const MAX_BULK_DELIVERIES = 3000;

type LockedDelivery = Awaited<ReturnType<typeof lockDeliveries>>[number];

/**
 * Locks the selected deliveries in id order (decision 0025: same-table rows in key order; the
 * orders, read only, are not locked) and refuses the whole selection when one is unknown or its
 * order is not one Despacho works on.
 */
async function lockDeliveries(tx: Transaction, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new DispatchRefusedError("Selecciona al menos un envío.");
  if (unique.length > MAX_BULK_DELIVERIES) throw new DispatchRefusedError(`Selecciona como máximo ${MAX_BULK_DELIVERIES} envíos a la vez.`);
  const rows = await tx
    .select({
      ...deliveryToMoveColumns,
      historyLength: sql<number>`jsonb_array_length(${deliveries.statusHistory})`.mapWith(Number),
    })
    .from(deliveries)
    .where(inArray(deliveries.id, unique))
    .orderBy(asc(deliveries.id))
    .for("update");
  if (rows.length !== unique.length) throw new DispatchRefusedError("Uno de los envíos seleccionados ya no existe. Recarga la página.");
  const orderIds = [...new Set(rows.map((row) => row.orderId))];
  const dispatchable = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(inArray(orders.id, orderIds), dispatchableOrder));
  const allowed = new Set(dispatchable.map((row) => row.id));
  const blocked = rows.find((row) => !allowed.has(row.orderId));
  if (blocked) throw new DispatchRefusedError(`El envío ${blocked.deliveryNumber} es de un pedido sin pago que no se puede despachar.`);
  return rows;
}

/** Refuses the selection unless every delivery can move to `to` (or already is there). */
function ensureCanMove(rows: LockedDelivery[], to: DeliveryStatus, verb: string) {
  for (const row of rows) {
    if (row.status === to) continue;
    if (!isDeliveryStatus(row.status) || !deliveryPath(row.status, to)) {
      throw new DispatchRefusedError(
        `El envío ${row.deliveryNumber} está ${deliveryStatusLabel(row.status).toLowerCase()} y no se puede ${verb}. No se cambió ningún envío.`,
      );
    }
  }
}

const snapshot = (row: Pick<LockedDelivery, "status" | "assignedDriverId" | "routePosition" | "deliveryDate" | "deliveryWindow">) => ({
  status: row.status,
  assignedDriverId: row.assignedDriverId,
  routePosition: row.routePosition,
  deliveryDate: row.deliveryDate,
  deliveryWindow: row.deliveryWindow,
});

/** "Preparar": pending → preparing, all or none; those already preparing are left alone. */
export async function prepareDeliveries(db: Database, actor: StaffActor, input: { ids: string[]; now: Date }): Promise<DispatchActionResult> {
  return inTransaction(db, async (tx) => {
    const rows = await lockDeliveries(tx, input.ids);
    ensureCanMove(rows, "preparing", "preparar");
    const result = await transitionDeliveries(tx, input.ids, "preparing", { actor: actor.email, now: input.now });
    const moved = new Set(result.moved.map((row) => row.id));
    await recordStaffActions(
      tx,
      actor,
      rows
        .filter((row) => moved.has(row.id))
        .map((row) => ({
          action: "delivery.prepare",
          entityType: "delivery",
          entityId: row.id,
          before: snapshot(row),
          after: { ...snapshot(row), status: "preparing" },
        })),
    );
    return { changed: moved.size, unchanged: rows.length - moved.size };
  });
}

/**
 * "Asignar a repartidor": sets the driver, appends the stops at the end of that driver's route for
 * their day (in district, then window order) and moves them to scheduled. The driver's user row is
 * locked first (decision 0025: users before deliveries), so two assignments to the same driver
 * never hand out the same route position.
 */
export async function assignDeliveries(db: Database, actor: StaffActor, input: { ids: string[]; driverId: string; now: Date }): Promise<DispatchActionResult> {
  return inTransaction(db, async (tx) => {
    const [driver] = await tx
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(and(eq(users.id, input.driverId), eq(users.role, "repartidor"), eq(users.status, "active")))
      .for("update");
    if (!driver) throw new DispatchRefusedError("Elige un repartidor activo.");
    const rows = await lockDeliveries(tx, input.ids);
    ensureCanMove(rows, "scheduled", "asignar");
    const toAssign = rows.filter((row) => !(row.status === "scheduled" && row.assignedDriverId === driver.id)).sort(compareStops);
    if (toAssign.length === 0) return { changed: 0, unchanged: rows.length };

    const dates = [...new Set(toAssign.map((row) => row.deliveryDate))];
    const lastPositions = await tx
      .select({
        date: deliveries.deliveryDate,
        last: sql<number | null>`max(${deliveries.routePosition})`.mapWith((value: unknown) => (value === null ? null : Number(value))),
      })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.assignedDriverId, driver.id),
          inArray(deliveries.deliveryDate, dates),
          notInArray(
            deliveries.id,
            toAssign.map((row) => row.id),
          ),
        ),
      )
      .groupBy(deliveries.deliveryDate);
    const next = new Map(dates.map((date) => [date, (lastPositions.find((row) => row.date === date)?.last ?? 0) + 1]));

    const driverName = `${driver.firstName} ${driver.lastName}`.trim();
    await transitionDeliveries(
      tx,
      toAssign.filter((row) => row.status !== "scheduled").map((row) => row.id),
      "scheduled",
      { actor: actor.email, now: input.now, note: `Asignado a ${driverName}` },
    );
    const entries = [];
    for (const row of toAssign) {
      const position = next.get(row.deliveryDate)!;
      next.set(row.deliveryDate, position + 1);
      await tx.update(deliveries).set({ assignedDriverId: driver.id, routePosition: position, updatedAt: input.now }).where(eq(deliveries.id, row.id));
      entries.push({
        action: "delivery.assign",
        entityType: "delivery",
        entityId: row.id,
        before: snapshot(row),
        after: { ...snapshot(row), status: "scheduled", assignedDriverId: driver.id, routePosition: position },
      });
    }
    await recordStaffActions(tx, actor, entries);
    // Issue 26: the stops have arrival times on their new route; the routes they left are retimed too.
    await retimeDriverDays(
      tx,
      toAssign.flatMap((row) => [
        { date: row.deliveryDate, driverId: driver.id },
        { date: row.deliveryDate, driverId: row.assignedDriverId },
      ]),
      input.now,
    );
    return { changed: toAssign.length, unchanged: rows.length - toAssign.length };
  });
}

/**
 * Whether the selected deliveries may move to this date and window: a window the shop offers, and
 * for every district a day it is served on, from tomorrow on (core/delivery-schedule.ts, the
 * checkout's rule). The single call site of the reschedule rules: capacity checks join here.
 */
export async function ensureRescheduleAllowed(
  tx: Transaction,
  input: { deliveries: { id: string; districtId: number; districtName: string }[]; date: string; deliveryWindow: string; now: Date },
): Promise<void> {
  if (!Object.hasOwn(deliveryWindows, input.deliveryWindow)) throw new DispatchRefusedError("Elige un horario de entrega.");
  const districtIds = [...new Set(input.deliveries.map((row) => row.districtId))];
  const days = await readWeekdaysOfDistricts(tx, districtIds);
  const dayNumber = isoWeekday(input.date);
  for (const districtId of districtIds) {
    const districtDays = days.get(districtId) ?? [];
    const error = deliveryScheduleError({ districtDays, dayNumber, date: input.date, now: input.now });
    if (!error) continue;
    const districtName = input.deliveries.find((row) => row.districtId === districtId)!.districtName;
    throw new DispatchRefusedError(
      error.field === "diaHabil" ? `${districtName} no recibe entregas ese día. No se cambió ningún envío.` : `${error.message}. No se cambió ningún envío.`,
    );
  }
  // Closed days and places (decision 0037): the moved deliveries claim their places on the new date,
  // not counting themselves where they already sit there.
  const claim = await claimSlots(
    tx,
    input.deliveries.map((row) => ({ districtId: row.districtId, date: input.date, window: input.deliveryWindow })),
    { excludeDeliveryIds: input.deliveries.map((row) => row.id) },
  );
  if (!claim.ok) {
    throw new DispatchRefusedError(
      claim.reason === "closed"
        ? `El ${claim.date} no hay entregas (${claim.name}). No se cambió ningún envío.`
        : `No quedan cupos ese día en ese horario (${claim.used} de ${claim.capacity} ocupados). No se cambió ningún envío.`,
    );
  }
}

/**
 * "Reprogramar": moves the deliveries to another date and window (→ rescheduled → scheduled, one
 * history entry each), off any driver's route (the route is per day), and tells each customer the
 * new date by e-mail. Those already scheduled on that date and window are left alone.
 */
export async function rescheduleDeliveries(
  db: Database,
  actor: StaffActor,
  input: { ids: string[]; date: string; deliveryWindow: string; now: Date; siteUrl: string },
): Promise<DispatchActionResult> {
  return inTransaction(db, async (tx) => {
    const rows = await lockDeliveries(tx, input.ids);
    await ensureRescheduleAllowed(tx, { deliveries: rows, date: input.date, deliveryWindow: input.deliveryWindow, now: input.now });
    ensureCanMove(rows, "rescheduled", "reprogramar");
    const toMove = rows.filter((row) => !(row.status === "scheduled" && row.deliveryDate === input.date && row.deliveryWindow === input.deliveryWindow));
    if (toMove.length === 0) return { changed: 0, unchanged: rows.length };
    const note = `Reprogramado para el ${input.date} (${deliveryWindowLabel(input.deliveryWindow)})`;
    const to = { date: input.date, deliveryWindow: input.deliveryWindow };
    await recordStaffActions(tx, actor, await moveDeliveries(tx, toMove, to, { actor: actor.email, now: input.now, note }, { action: "delivery.reschedule" }));
    await tellRescheduledDeliveries(
      tx,
      toMove.map((row) => ({ ...row, date: input.date, deliveryWindow: input.deliveryWindow })),
      input,
    );
    return { changed: toMove.length, unchanged: rows.length - toMove.length };
  });
}
