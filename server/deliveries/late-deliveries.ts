import { may } from "@core/staff-permissions";
import { eq, inArray } from "drizzle-orm";
import { lateReasonLabels, type ArrivalEstimate } from "@core/arrival-estimate";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { limaToday } from "@core/lima-dates";
import type { StaffRole } from "@core/staff-roles";
import { deliveries, orders, users } from "../db/schema";
import type { Database } from "../db/client";
import type { DatabaseOrTransaction } from "../db/transaction";
import { receiptPath } from "../orders/index.server";
import { enqueueWhatsappTemplates, lateWhatsapp, whatsappEnabled } from "../whatsapp/index.server";
import { arrivalView, dayArrivals } from "./arrival-estimates";

/**
 * Issue 40: deliveries that will miss the slot promised at checkout, by the one arrival estimate
 * (`@core/arrival-estimate`). Staff see them in Despacho (a badge per stop) and on Inicio (admin and
 * operaciones); customers with WhatsApp on get one "pedido_retrasado" per delivery and day.
 */

/** A late stop of the day, for staff's alarms and the customer's message. */
export interface LateDelivery {
  deliveryId: string;
  deliveryNumber: string;
  orderId: string;
  deliveryWindow: string;
  driverId: string | null;
  estimate: ArrivalEstimate & { late: NonNullable<ArrivalEstimate["late"]> };
}

/**
 * Every open delivery of a day that will miss (or has missed) its slot, on any route or none, in
 * route order per driver. Three queries whatever the number of stops.
 */
export async function lateDeliveriesOfDay(db: DatabaseOrTransaction, input: { date: string; now: Date }): Promise<LateDelivery[]> {
  const { stops, estimates } = await dayArrivals(db, input);
  return stops.flatMap((stop) => {
    const estimate = estimates.get(stop.id);
    if (!estimate?.late) return [];
    const late = estimate.late;
    return [
      {
        deliveryId: stop.id,
        deliveryNumber: stop.deliveryNumber,
        orderId: stop.orderId,
        deliveryWindow: stop.deliveryWindow,
        driverId: stop.driverId,
        estimate: { ...estimate, late },
      },
    ];
  });
}

/** Despacho's "Con retraso" badges: each late delivery's reason and minutes, by id. */
export function lateBadges(late: readonly LateDelivery[]): Record<string, string> {
  return Object.fromEntries(late.map((row) => [row.deliveryId, `${lateReasonLabels[row.estimate.late.reason]} (${row.estimate.late.minutes} min tarde)`]));
}

const ALARM_LIST_LIMIT = 20;

export interface LateDeliveriesAlarm {
  date: string;
  count: number;
  /** The first of them, in route order: enough to act on, linked to each order. */
  rows: {
    deliveryId: string;
    deliveryNumber: string;
    orderId: string;
    orderNumber: string;
    windowLabel: string;
    reason: string;
    minutes: number;
    driverName: string | null;
  }[];
}

/**
 * Inicio's alarm (issue 40): today's deliveries that are overdue or will be late, for whoever runs
 * the day (admin and operaciones); null for anyone else, a repartidor included, whose own route
 * already shows each stop's estimate.
 */
export async function lateDeliveriesAlarm(db: Database, member: { role: StaffRole }, now: Date): Promise<LateDeliveriesAlarm | null> {
  if (!may(member.role, "dia.dirigir")) return null;
  const date = limaToday(now);
  const late = await lateDeliveriesOfDay(db, { date, now });
  const shown = late.slice(0, ALARM_LIST_LIMIT);
  const orderIds = [...new Set(shown.map((row) => row.orderId))];
  const driverIds = [...new Set(shown.flatMap((row) => (row.driverId ? [row.driverId] : [])))];
  const [orderRows, driverRows] = await Promise.all([
    orderIds.length ? db.select({ id: orders.id, orderNumber: orders.orderNumber }).from(orders).where(inArray(orders.id, orderIds)) : [],
    driverIds.length ? db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, driverIds)) : [],
  ]);
  const orderNumbers = new Map(orderRows.map((row) => [row.id, row.orderNumber]));
  const driverNames = new Map(driverRows.map((row) => [row.id, `${row.firstName} ${row.lastName}`]));
  return {
    date,
    count: late.length,
    rows: shown.map((row) => ({
      deliveryId: row.deliveryId,
      deliveryNumber: row.deliveryNumber,
      orderId: row.orderId,
      orderNumber: orderNumbers.get(row.orderId) ?? "",
      windowLabel: deliveryWindowLabel(row.deliveryWindow),
      reason: lateReasonLabels[row.estimate.late.reason],
      minutes: row.estimate.late.minutes,
      driverName: row.driverId ? (driverNames.get(row.driverId) ?? null) : null,
    })),
  };
}

/**
 * The "lateDeliveries" job: one "pedido_retrasado" WhatsApp per late delivery of today that has a
 * new window to give, through the outbox (retried, never lost). The dedupe key is the delivery and
 * the day, so the job may run every pass and in two processes at once; the outbox keeps only
 * numbers that opted in and are proven for the order. Nothing when WhatsApp is off.
 */
export async function tellLateDeliveries(db: Database, input: { now: Date; siteUrl: string }): Promise<{ queued: number }> {
  if (!whatsappEnabled()) return { queued: 0 };
  const date = limaToday(input.now);
  const late = (await lateDeliveriesOfDay(db, { date, now: input.now })).filter((row) => row.estimate.window);
  if (late.length === 0) return { queued: 0 };
  const rows = await db
    .select({
      deliveryId: deliveries.id,
      orderId: orders.id,
      orderNumber: orders.orderNumber,
      firstName: orders.customerFirstName,
      phone: orders.customerPhone,
      userId: orders.userId,
      email: orders.customerEmail,
    })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .where(
      inArray(
        deliveries.id,
        late.map((row) => row.deliveryId),
      ),
    );
  const byDelivery = new Map(rows.map((row) => [row.deliveryId, row]));
  const messages = late.flatMap((row) => {
    const order = byDelivery.get(row.deliveryId);
    const view = arrivalView(row.estimate);
    if (!order || !view.window || !view.late) return [];
    return [
      lateWhatsapp({
        ...order,
        siteUrl: input.siteUrl,
        orderPath: receiptPath(order.orderId),
        deliveryId: row.deliveryId,
        date,
        windowLabel: deliveryWindowLabel(row.deliveryWindow),
        reason: view.late.label,
        arrival: view.window,
      }),
    ];
  });
  return { queued: await enqueueWhatsappTemplates(db, messages, input.now) };
}
