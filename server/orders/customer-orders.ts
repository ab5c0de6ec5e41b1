import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { liveSaleInvoiceOf } from "../invoices/index.server";
import type { Database } from "../db/client";
import { deliveries, invoices, orderItems, orders, payments } from "../db/schema";
import { isUuid } from "../db/uuid";
import { orderPlanLabel } from "@core/delivery-cadence";
import { currentDelivery, currentDeliveryOf, shownDelivery, type ShownDelivery } from "./current-delivery";

/** Spec §9: the order list shows 10 per page. */
export const ORDERS_PAGE_SIZE = 10;

export interface CustomerOrderRow {
  id: string;
  orderNumber: string;
  /** ISO instant; pages show it in Lima time. */
  createdAt: string;
  orderType: string;
  status: string;
  totalCents: number;
}

export interface OrderLine {
  title: string;
  variantTitle: string | null;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
}

/** What an order costs, as the server priced it (céntimos): customer, staff and receipt views show the same. */
export interface OrderAmounts {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  totalCents: number;
  /** Decision 0075: the bidón garantía inside the total, its bidones and the credit that paid part of it. */
  garantiaCents: number;
  garantiaUnits: number;
  garantiaCreditCents: number;
}

/** What the customer's and the staff's order pages both open with: the order, its plan, its lines and its amounts. */
export interface OrderHeading extends OrderAmounts {
  id: string;
  orderNumber: string;
  status: string;
  orderType: string;
  subscriptionFrequency: string | null;
  /** A subscription's order: "Suscripción Mensual · Entrega semanal (4 al mes)" (decision 0097); null otherwise. */
  plan: string | null;
  createdAt: string;
  items: OrderLine[];
}

export function orderAmounts(order: typeof orders.$inferSelect): OrderAmounts {
  return {
    subtotalCents: order.subtotalCents,
    discountCents: order.discountCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    garantiaCents: order.garantiaCents,
    garantiaUnits: order.garantiaUnits,
    garantiaCreditCents: order.garantiaCreditCents,
  };
}

export function orderHeading(order: typeof orders.$inferSelect, items: OrderLine[]): OrderHeading {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    orderType: order.orderType,
    subscriptionFrequency: order.subscriptionFrequency,
    plan: orderPlanLabel(order),
    createdAt: order.createdAt.toISOString(),
    items,
    ...orderAmounts(order),
  };
}

export interface CustomerOrderDetail extends OrderHeading {
  /** The latest payment attempt; the order's own method when it never had one. */
  payment: { method: string | null; status: string | null; paymentCode: string | null };
  shipping: ShownDelivery & { recipient: string; phone: string; address: string; districtName: string; notes: string | null };
  deliveries: { id: string; deliveryNumber: string; status: string; deliveryDate: string }[];
  invoice: { id: string; invoiceNumber: string } | null;
}

/** Spec §7: the customer's orders newest first, one page of them, and how many there are in all. */
export async function listOrdersForUser(
  db: Database,
  userId: string,
  options: { page: number; pageSize?: number },
): Promise<{ rows: CustomerOrderRow[]; total: number }> {
  const pageSize = options.pageSize ?? ORDERS_PAGE_SIZE;
  const page = Math.max(1, Math.floor(options.page) || 1);
  const mine = eq(orders.userId, userId);
  const [counted] = await db.select({ total: count() }).from(orders).where(mine);
  const rows = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      createdAt: orders.createdAt,
      orderType: orders.orderType,
      status: orders.status,
      totalCents: orders.totalCents,
    })
    .from(orders)
    .where(mine)
    .orderBy(desc(orders.createdAt), desc(orders.orderNumber))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })), total: counted?.total ?? 0 };
}

/** The lines of several orders at once, in the order they were bought, keyed by order id. */
export async function listOrderLines(db: Database, orderIds: string[]): Promise<Map<string, OrderLine[]>> {
  const lines = new Map<string, OrderLine[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return lines;
  const rows = await db
    .select({
      orderId: orderItems.orderId,
      title: orderItems.title,
      variantTitle: orderItems.variantTitle,
      quantity: orderItems.quantity,
      unitPriceCents: orderItems.unitPriceCents,
      lineTotalCents: orderItems.lineTotalCents,
    })
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.id));
  for (const { orderId, ...line } of rows) lines.get(orderId)?.push(line);
  return lines;
}

/**
 * One of the customer's orders with everything its detail page shows. Null for an id that is
 * malformed, unknown or another customer's: the caller cannot tell which (spec §6).
 */
export async function findOrderForUser(db: Database, userId: string, orderId: string): Promise<CustomerOrderDetail | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db
    .select({ order: orders, current: currentDeliveryOf(orders.id) })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) return null;
  const { order } = row;
  const delivery = currentDelivery(order, row.current);
  const [lines, [payment], orderDeliveries, [invoice]] = await Promise.all([
    listOrderLines(db, [order.id]),
    db
      .select({ method: payments.method, status: payments.status, paymentCode: payments.paymentCode })
      .from(payments)
      .where(eq(payments.orderId, order.id))
      .orderBy(desc(payments.createdAt), desc(payments.updatedAt))
      .limit(1),
    db
      .select({ id: deliveries.id, deliveryNumber: deliveries.deliveryNumber, status: deliveries.status, deliveryDate: deliveries.deliveryDate })
      .from(deliveries)
      .where(eq(deliveries.orderId, order.id))
      .orderBy(asc(deliveries.deliveryDate), asc(deliveries.deliveryNumber)),
    db.select({ id: invoices.id, invoiceNumber: invoices.invoiceNumber }).from(invoices).where(liveSaleInvoiceOf(order.id)),
  ]);
  return {
    ...orderHeading(order, lines.get(order.id) ?? []),
    payment: { method: payment?.method ?? order.paymentMethod, status: payment?.status ?? null, paymentCode: payment?.paymentCode ?? null },
    shipping: {
      recipient: `${order.customerFirstName} ${order.customerLastName}`,
      phone: order.customerPhone,
      address: order.address,
      districtName: order.districtName,
      ...shownDelivery(delivery),
      notes: order.deliveryNotes,
    },
    deliveries: orderDeliveries,
    invoice: invoice ?? null,
  };
}
