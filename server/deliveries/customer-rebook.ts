import { and, asc, desc, eq, sql } from "drizzle-orm";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate } from "@core/lima-dates";
import type { Database } from "../db/client";
import { readDistrictWeekdays } from "../content/index.server";
import { deliveries, orders } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { DispatchRefusedError, ensureRescheduleAllowed } from "./dispatch-actions";
import { deliveryToMoveColumns, moveDeliveries } from "./move-deliveries";
import { offeredDeliverySlots, type OfferedDate } from "./offered-slots";
import { tellRescheduledDeliveries } from "./rescheduled-email";

/**
 * Issue 25: the customer picks a new date for a delivery the driver could not make ("No se pudo
 * entregar"), from the link in that e-mail and WhatsApp message, instead of waiting for staff to
 * reschedule it in Despacho (decision 0062: the delivery's date moves, the order keeps the date
 * asked for). The same rules as checkout: the district's weekdays, after its cut-off, no closed
 * day, a window with room.
 */
export interface FailedDeliveryToRebook {
  orderNumber: string;
  delivery: { id: string; deliveryNumber: string; districtName: string; deliveryDate: string; deliveryWindow: string };
  offered: OfferedDate[];
}

export type RebookLookup = { state: "rebook"; value: FailedDeliveryToRebook } | { state: "nothing_to_rebook"; orderNumber: string } | null;

/** The order's latest failed delivery and the dates its district offers now; null for an unknown order. */
export async function failedDeliveryToRebook(db: DatabaseOrTransaction, orderId: string, now: Date): Promise<RebookLookup> {
  const [order] = await db.select({ orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const [delivery] = await db
    .select({
      id: deliveries.id,
      deliveryNumber: deliveries.deliveryNumber,
      districtId: deliveries.districtId,
      districtName: deliveries.districtName,
      deliveryDate: deliveries.deliveryDate,
      deliveryWindow: deliveries.deliveryWindow,
    })
    .from(deliveries)
    .where(and(eq(deliveries.orderId, orderId), eq(deliveries.status, "failed")))
    .orderBy(desc(deliveries.deliveryDate), asc(deliveries.deliveryNumber))
    .limit(1);
  if (!delivery || delivery.districtId === null) return { state: "nothing_to_rebook", orderNumber: order.orderNumber };
  const dayNumbers = await readDistrictWeekdays(db, delivery.districtId);
  const offered = await offeredDeliverySlots(db, { now, districts: [{ id: delivery.districtId, dayNumbers }] });
  const { districtId: _district, ...shown } = delivery;
  return { state: "rebook", value: { orderNumber: order.orderNumber, delivery: shown, offered: offered[delivery.districtId] ?? [] } };
}

export type RebookResult =
  | { ok: true; changed: boolean; date: string; deliveryWindow: string }
  | { ok: false; reason: "not_found" }
  /** The delivery has its new date already (staff, or this form sent twice): nothing changed. */
  | { ok: false; reason: "already_rebooked" }
  /** The date or window is not offered now (full, closed, past the cut-off): the Spanish message says why. */
  | { ok: false; reason: "unavailable"; message: string };

/**
 * Moves the failed delivery to the date and window the customer chose, in one transaction: the
 * order, then the delivery locked (decision 0025), its place claimed under the slot's lock, the
 * move with its history line (→ rescheduled → scheduled, off any route), and the "Nueva fecha de
 * entrega" e-mail. Sent twice, the second finds it scheduled and changes nothing.
 */
export async function rebookFailedDelivery(
  db: Database,
  input: { orderId: string; deliveryId: string; date: string; deliveryWindow: string; now: Date; siteUrl: string },
): Promise<RebookResult> {
  const chosen = await failedDeliveryToRebook(db, input.orderId, input.now);
  // The cut-off and closed days as checkout offers them (the lock below re-checks room and weekdays).
  const offeredNow = chosen?.state === "rebook" ? chosen.value.offered.find((day) => day.date === input.date) : undefined;
  const windowOffered = offeredNow?.windows.some((window) => window.window === input.deliveryWindow && window.hasRoom) ?? false;
  try {
    return await inTransaction(db, async (tx) => {
      const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, input.orderId)).for("update");
      const [row] = await tx
        .select({ ...deliveryToMoveColumns, historyLength: sql<number>`jsonb_array_length(${deliveries.statusHistory})`.mapWith(Number) })
        .from(deliveries)
        .where(and(eq(deliveries.id, input.deliveryId), eq(deliveries.orderId, input.orderId)))
        .for("update");
      if (!order || !row || row.districtId === null) return { ok: false, reason: "not_found" } as const;
      if (row.status !== "failed") {
        const same = row.status === "scheduled" && row.deliveryDate === input.date && row.deliveryWindow === input.deliveryWindow;
        return same
          ? { ok: true, changed: false, date: row.deliveryDate, deliveryWindow: row.deliveryWindow }
          : ({ ok: false, reason: "already_rebooked" } as const);
      }
      if (!windowOffered) throw new DispatchRefusedError("Esa fecha u horario ya no está disponible. Elige otro.");
      await ensureRescheduleAllowed(tx, {
        deliveries: [{ id: row.id, districtId: row.districtId, districtName: row.districtName }],
        date: input.date,
        deliveryWindow: input.deliveryWindow,
        now: input.now,
      });
      const note = `Nueva fecha elegida por el cliente: ${formatLimaDate(input.date)} (${deliveryWindowLabel(input.deliveryWindow)})`;
      await moveDeliveries(
        tx,
        [row],
        { date: input.date, deliveryWindow: input.deliveryWindow },
        { actor: "cliente", now: input.now, note },
        { action: "delivery.rebook" },
      );
      await tellRescheduledDeliveries(tx, [{ ...row, date: input.date, deliveryWindow: input.deliveryWindow }], input);
      return { ok: true, changed: true, date: input.date, deliveryWindow: input.deliveryWindow } as const;
    });
  } catch (error) {
    if (error instanceof DispatchRefusedError) return { ok: false, reason: "unavailable", message: error.message.replace(" No se cambió ningún envío.", "") };
    throw error;
  }
}
