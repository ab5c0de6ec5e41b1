import { and, desc, eq, inArray } from "drizzle-orm";
import { orderPlanLabel } from "@core/delivery-cadence";
import { payAtDoorSentence } from "@core/door-payment";
import { paymentStage } from "@core/order-labels";
import { liveSaleInvoiceOf } from "../invoices/index.server";
import type { Database } from "../db/client";
import { invoices, orders, payments } from "../db/schema";
import { isUuid } from "../db/uuid";
import { currentDelivery, currentDeliveryOf, shownDelivery, type ShownDelivery } from "./current-delivery";
import { listOrderLines, orderAmounts, type OrderAmounts } from "./customer-orders";

export interface OrderReceipt {
  id: string;
  orderNumber: string;
  status: string;
  orderType: string;
  /**
   * Issue 38: the order is confirmed and waits for its money at the door: "Pagarás S/ 84.00 al
   * recibir (efectivo, llevamos vuelto de S/ 16.00)". Null once collected, or for an online payment.
   */
  payAtDoor: string | null;
  /** Only for the order's owner (decisions.md): everyone else sees number and status. */
  details:
    | (ShownDelivery &
        OrderAmounts & {
          customerName: string;
          customerEmail: string;
          address: string;
          districtName: string;
          paymentMethod: string | null;
          invoiceNumber: string | null;
          /** A subscription's order: "Suscripción Mensual · Entrega semanal (4 al mes)" (decision 0097); null otherwise. */
          plan: string | null;
          createdAt: string;
          items: { title: string; variantTitle: string | null; quantity: number; unitPriceCents: number; lineTotalCents: number }[];
          /**
           * Issue 41: an unpaid order's open online attempt: its cash code once one was given, when it
           * stops being payable (ISO instant) and its payment page. Null once paid, or at the door.
           */
          openPayment: { code: string | null; expiresAt: string | null; payPath: string } | null;
        })
    | null;
}

export async function findOrderReceipt(db: Database, orderId: string, options: { owner: boolean }): Promise<OrderReceipt | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db
    .select({ order: orders, current: currentDeliveryOf(orders.id) })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!row) return null;
  const { order } = row;
  const [door] = await db
    .select({ amountCents: payments.amountCents, method: payments.method, paysWithCents: payments.paysWithCents })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.provider, "contra_entrega"), eq(payments.status, "pending")))
    .limit(1);
  const payAtDoor =
    door && paymentStage(order.status) === "awaiting"
      ? payAtDoorSentence(door.amountCents, door.method === "yape" ? "yape" : "cash", door.paysWithCents)
      : null;
  const base = { id: order.id, orderNumber: order.orderNumber, status: order.status, orderType: order.orderType, payAtDoor };
  if (!options.owner) return { ...base, details: null };
  const delivery = currentDelivery(order, row.current);
  const items = (await listOrderLines(db, [order.id])).get(order.id) ?? [];
  const [invoice] = await db.select({ invoiceNumber: invoices.invoiceNumber }).from(invoices).where(liveSaleInvoiceOf(order.id));
  const [open] =
    paymentStage(order.status) === "awaiting" && !payAtDoor
      ? await db
          .select({ id: payments.id, provider: payments.provider, code: payments.paymentCode, expiresAt: payments.expiresAt })
          .from(payments)
          .where(and(eq(payments.orderId, order.id), inArray(payments.status, ["created", "pending"]), inArray(payments.provider, ["sandbox", "culqi"])))
          .orderBy(desc(payments.createdAt))
          .limit(1)
      : [];
  return {
    ...base,
    details: {
      customerName: `${order.customerFirstName} ${order.customerLastName}`,
      customerEmail: order.customerEmail,
      address: order.address,
      districtName: order.districtName,
      ...shownDelivery(delivery),
      ...orderAmounts(order),
      paymentMethod: order.paymentMethod,
      invoiceNumber: invoice?.invoiceNumber ?? null,
      plan: orderPlanLabel(order),
      createdAt: order.createdAt.toISOString(),
      items,
      openPayment: open ? { code: open.code, expiresAt: open.expiresAt?.toISOString() ?? null, payPath: `/pago/${open.provider}/${open.id}` } : null,
    },
  };
}
