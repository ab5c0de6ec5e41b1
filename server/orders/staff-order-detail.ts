import { asc, eq } from "drizzle-orm";
import { liveSaleInvoiceOf } from "../invoices/index.server";
import type { Database } from "../db/client";
import { readDistrictCentre } from "../content/index.server";
import { deliveries, invoices, orderNotes, orders, orderStatusChanges, payments, refunds, users } from "../db/schema";
import { isUuid } from "../db/uuid";
import { currentDelivery, currentDeliveryOf, shownDelivery, type ShownDelivery } from "./current-delivery";
import { listOrderLines, orderHeading, type OrderHeading } from "./customer-orders";
import { canTransition, type OrderStatus } from "./order-status";

export interface StaffOrderDetail extends OrderHeading {
  customer: {
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    documentType: string;
    documentNumber: string;
    ruc: string | null;
    businessName: string | null;
    hasAccount: boolean;
  };
  shipping: ShownDelivery & {
    address: string;
    districtName: string;
    notes: string | null;
    /** Issue 26: the address's pin; null: the district's centre (`districtCenter`) stands in. */
    point: { lat: number; lng: number } | null;
    districtCenter: { lat: number; lng: number } | null;
  };
  payments: {
    id: string;
    provider: string;
    method: string | null;
    status: string;
    amountCents: number;
    providerReference: string | null;
    paymentCode: string | null;
    /** When an unpaid attempt (or its code) stops being payable; ISO instant. */
    expiresAt: string | null;
    failureMessage: string | null;
    createdAt: string;
    settledAt: string | null;
  }[];
  deliveries: { id: string; deliveryNumber: string; status: string; deliveryDate: string; deliveryWindow: string; driverName: string | null }[];
  invoice: { invoiceNumber: string; status: string; totalCents: number } | null;
  timeline: { fromStatus: string | null; toStatus: string; actor: string; note: string | null; createdAt: string }[];
  refunds: {
    id: string;
    amountCents: number;
    reason: string;
    status: string;
    provider: string;
    providerRefundId: string | null;
    createdAt: string;
    refundedAt: string | null;
  }[];
  notes: StaffOrderNote[];
  /** What the state machine lets staff do with it now (decisions.md, Orders). */
  actions: StaffOrderActions;
}

export interface StaffOrderNote {
  id: number;
  authorName: string;
  authorEmail: string;
  body: string;
  createdAt: string;
}

export interface StaffOrderActions {
  cancel: boolean;
  refund: boolean;
  resendConfirmation: boolean;
}

/** Statuses an order reaches only after its confirmation e-mail was queued (payment settled). */
const CONFIRMED_STATUSES = ["paid", "processing", "shipped", "delivered"];

/**
 * Cancelling is the machine's edge to `cancelled` from an order not yet shipped; a refund needs
 * money captured and not all of it given back (a partial refund keeps the order's status,
 * decisions.md); the confirmation exists once the order was paid and invoiced.
 */
export function staffOrderActions(order: { status: string; capturedCents: number; refundedCents: number; invoiced: boolean }): StaffOrderActions {
  return {
    cancel: canTransition(order.status as OrderStatus, "cancelled"),
    refund: order.status !== "refunded" && order.capturedCents > order.refundedCents,
    resendConfirmation: order.invoiced && CONFIRMED_STATUSES.includes(order.status),
  };
}

/** Everything the staff order page shows; null for an id that is malformed or unknown. */
export async function findStaffOrder(db: Database, orderId: string): Promise<StaffOrderDetail | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db
    .select({ order: orders, current: currentDeliveryOf(orders.id) })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!row) return null;
  const { order } = row;
  const delivery = currentDelivery(order, row.current);
  const [lines, orderPayments, orderDeliveries, [invoice], timeline, orderRefunds, notes, districtCenter] = await Promise.all([
    listOrderLines(db, [order.id]),
    db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(asc(payments.createdAt), asc(payments.id)),
    db
      .select({
        id: deliveries.id,
        deliveryNumber: deliveries.deliveryNumber,
        status: deliveries.status,
        deliveryDate: deliveries.deliveryDate,
        deliveryWindow: deliveries.deliveryWindow,
        driverName: users.name,
      })
      .from(deliveries)
      .leftJoin(users, eq(users.id, deliveries.assignedDriverId))
      .where(eq(deliveries.orderId, order.id))
      .orderBy(asc(deliveries.deliveryDate), asc(deliveries.deliveryNumber)),
    db
      .select({ invoiceNumber: invoices.invoiceNumber, status: invoices.status, totalCents: invoices.totalCents })
      .from(invoices)
      .where(liveSaleInvoiceOf(order.id)),
    db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, order.id)).orderBy(asc(orderStatusChanges.createdAt), asc(orderStatusChanges.id)),
    db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(asc(refunds.createdAt), asc(refunds.id)),
    listOrderNotes(db, order.id),
    readDistrictCentre(db, order.districtId),
  ]);
  const capturedCents = orderPayments.filter((payment) => payment.status === "succeeded").reduce((sum, payment) => sum + payment.amountCents, 0);
  // A refund still being retried counts: it will be paid, so it is no longer there to give back.
  const refundedCents = orderRefunds.reduce((sum, refund) => sum + refund.amountCents, 0);
  const iso = (instant: Date | null) => instant?.toISOString() ?? null;
  return {
    ...orderHeading(order, lines.get(order.id) ?? []),
    customer: {
      firstName: order.customerFirstName,
      lastName: order.customerLastName,
      email: order.customerEmail,
      phone: order.customerPhone,
      documentType: order.documentType,
      documentNumber: order.documentNumber,
      ruc: order.ruc,
      businessName: order.businessName,
      hasAccount: order.userId !== null,
    },
    shipping: {
      address: order.address,
      districtName: order.districtName,
      ...shownDelivery(delivery),
      notes: order.deliveryNotes,
      point: order.addressLat !== null && order.addressLng !== null ? { lat: order.addressLat, lng: order.addressLng } : null,
      districtCenter,
    },
    payments: orderPayments.map((payment) => ({
      id: payment.id,
      provider: payment.provider,
      method: payment.method,
      status: payment.status,
      amountCents: payment.amountCents,
      providerReference: payment.providerReference,
      paymentCode: payment.paymentCode,
      expiresAt: payment.expiresAt?.toISOString() ?? null,
      failureMessage: payment.failureMessage,
      createdAt: payment.createdAt.toISOString(),
      settledAt: iso(payment.settledAt),
    })),
    deliveries: orderDeliveries,
    invoice: invoice ?? null,
    timeline: timeline.map((change) => ({
      fromStatus: change.fromStatus,
      toStatus: change.toStatus,
      actor: change.actor,
      note: change.note,
      createdAt: change.createdAt.toISOString(),
    })),
    refunds: orderRefunds.map((refund) => ({
      id: refund.id,
      amountCents: refund.amountCents,
      reason: refund.reason,
      status: refund.status,
      provider: refund.provider,
      providerRefundId: refund.providerRefundId,
      createdAt: refund.createdAt.toISOString(),
      refundedAt: iso(refund.refundedAt),
    })),
    notes,
    actions: staffOrderActions({ status: order.status, capturedCents, refundedCents, invoiced: Boolean(invoice) }),
  };
}

export async function listOrderNotes(db: Database, orderId: string): Promise<StaffOrderNote[]> {
  const rows = await db
    .select({
      id: orderNotes.id,
      authorName: orderNotes.authorName,
      authorEmail: orderNotes.authorEmail,
      body: orderNotes.body,
      createdAt: orderNotes.createdAt,
    })
    .from(orderNotes)
    .where(eq(orderNotes.orderId, orderId))
    .orderBy(asc(orderNotes.id));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
