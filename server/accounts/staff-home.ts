import { may } from "@core/staff-permissions";
import { and, count, desc, eq, inArray, ne } from "drizzle-orm";
import type { Database } from "../db/client";
import { deliveries, jobRowFailures, orders, refunds } from "../db/schema";
import { comprobantesNearDeadline } from "../invoices/index.server";
import { listDeadEmails, type DeadEmail } from "../notifications/index.server";
import { listDeadWhatsappMessages, type DeadWhatsappMessage } from "../whatsapp/index.server";
import type { StaffRole } from "@core/staff-roles";

/**
 * The back office's first page (issue 10, /admin): the day at a glance for whoever runs it, the
 * alarms only an admin can act on, and the driver's own stops. Every figure is a count or a short,
 * limited list, so the page stays cheap however large the shop grows.
 */

/** Orders paid and not yet on their way: the work waiting for Despacho (decisions.md, order states). */
const AWAITING_DISPATCH = ["paid", "processing"];
/** Refunds someone has to look at: still to go through the provider, or left for a person to do. */
const OPEN_REFUND_STATUSES = ["pending", "manual"];
const ALARM_LIST_LIMIT = 20;

export interface StaffHome {
  operations: { deliveriesToday: { status: string; count: number }[]; ordersAwaitingDispatch: number } | null;
  alarms: {
    deadEmails: DeadEmail[];
    /** WhatsApp messages given up on: a template Meta refused (132xxx), a bad token, a day of failures (issue 25). */
    deadWhatsapp: DeadWhatsappMessage[];
    rowFailures: { job: string; rowId: string; message: string; failures: number; lastFailedAt: Date }[];
    openRefunds: {
      id: string;
      orderId: string;
      orderNumber: string | null;
      amountCents: number;
      status: string;
      reason: string;
      lastError: string | null;
      createdAt: Date;
    }[];
  } | null;
  driver: { stopsToday: number } | null;
  /** Comprobantes not yet accepted whose SUNAT deadline is today or tomorrow, or past (decision 0045). */
  comprobantesDue: { id: string; invoiceNumber: string; electronicStatus: string; deadline: string; lastSendError: string | null }[] | null;
}

export async function getStaffHome(db: Database, member: { id: string; role: StaffRole }, today: string): Promise<StaffHome> {
  const runsTheDay = may(member.role, "dia.dirigir");
  const [operations, alarms, driver, comprobantesDue] = await Promise.all([
    runsTheDay ? operationsToday(db, today) : null,
    may(member.role, "alarmas.gestionar") ? adminAlarms(db) : null,
    member.role === "repartidor" ? driverToday(db, member.id, today) : null,
    runsTheDay ? comprobantesNearDeadline(db, today) : null,
  ]);
  return {
    operations,
    alarms,
    driver,
    comprobantesDue:
      comprobantesDue?.map(({ id, invoiceNumber, electronicStatus, deadline, lastSendError }) => ({
        id,
        invoiceNumber,
        electronicStatus,
        deadline,
        lastSendError,
      })) ?? null,
  };
}

async function operationsToday(db: Database, today: string) {
  const [byStatus, [awaiting]] = await Promise.all([
    db.select({ status: deliveries.status, count: count() }).from(deliveries).where(eq(deliveries.deliveryDate, today)).groupBy(deliveries.status),
    db.select({ count: count() }).from(orders).where(inArray(orders.status, AWAITING_DISPATCH)),
  ]);
  return {
    // bigint counts come back as strings from node-postgres (stack notes).
    deliveriesToday: byStatus.map((row) => ({ status: row.status, count: Number(row.count) })),
    ordersAwaitingDispatch: Number(awaiting?.count ?? 0),
  };
}

async function adminAlarms(db: Database) {
  const [deadEmails, deadWhatsapp, rowFailures, openRefunds] = await Promise.all([
    listDeadEmails(db, { limit: ALARM_LIST_LIMIT }),
    listDeadWhatsappMessages(db, { limit: ALARM_LIST_LIMIT }),
    db
      .select({
        job: jobRowFailures.job,
        rowId: jobRowFailures.rowId,
        message: jobRowFailures.message,
        failures: jobRowFailures.failures,
        lastFailedAt: jobRowFailures.lastFailedAt,
      })
      .from(jobRowFailures)
      .orderBy(desc(jobRowFailures.lastFailedAt))
      .limit(ALARM_LIST_LIMIT),
    db
      .select({
        id: refunds.id,
        orderId: refunds.orderId,
        orderNumber: orders.orderNumber,
        amountCents: refunds.amountCents,
        status: refunds.status,
        reason: refunds.reason,
        lastError: refunds.lastError,
        createdAt: refunds.createdAt,
      })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(inArray(refunds.status, OPEN_REFUND_STATUSES))
      .orderBy(desc(refunds.createdAt))
      .limit(ALARM_LIST_LIMIT),
  ]);
  return { deadEmails, deadWhatsapp, rowFailures, openRefunds };
}

async function driverToday(db: Database, driverId: string, today: string) {
  const [row] = await db
    .select({ count: count() })
    .from(deliveries)
    .where(and(eq(deliveries.assignedDriverId, driverId), eq(deliveries.deliveryDate, today), ne(deliveries.status, "cancelled")));
  return { stopsToday: Number(row?.count ?? 0) };
}
