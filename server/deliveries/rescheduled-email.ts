import { inArray } from "drizzle-orm";
import { readBrandName } from "../content/index.server";
import { orders } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { deliveryRescheduledEmail, enqueueEmail } from "../notifications/index.server";
import { receiptUrl } from "../orders/index.server";

export interface MovedDelivery {
  id: string;
  orderId: string;
  deliveryNumber: string;
  /** Entries in its history before the move: keys the e-mail, so a retried transaction or request queues it once per move. */
  historyLength: number;
  /** The new Lima date and window. */
  date: string;
  deliveryWindow: string;
}

/**
 * "Nueva fecha de entrega": one e-mail per moved delivery to its order's customer, queued in the
 * caller's transaction (Despacho's "Reprogramar", the subscription scheduler finding the asked-for
 * day closed or full). `brandName` lets a job that moves many read it once.
 */
export async function tellRescheduledDeliveries(
  tx: DatabaseOrTransaction,
  moved: MovedDelivery[],
  input: { now: Date; siteUrl: string; brandName?: string },
): Promise<void> {
  if (moved.length === 0) return;
  const orderRows = await tx
    .select({ id: orders.id, orderNumber: orders.orderNumber, firstName: orders.customerFirstName, email: orders.customerEmail })
    .from(orders)
    .where(inArray(orders.id, [...new Set(moved.map((row) => row.orderId))]));
  const brandName = input.brandName ?? (await readBrandName(tx));
  for (const row of moved) {
    const order = orderRows.find((each) => each.id === row.orderId)!;
    const email = deliveryRescheduledEmail({
      brandName,
      firstName: order.firstName,
      orderNumber: order.orderNumber,
      deliveryNumber: row.deliveryNumber,
      date: row.date,
      deliveryWindow: row.deliveryWindow,
      receiptUrl: receiptUrl(order.id, input.siteUrl),
    });
    await enqueueEmail(
      tx,
      { dedupeKey: `delivery-rescheduled:${row.id}:${row.historyLength}`, kind: "delivery-rescheduled", to: order.email, ...email },
      input.now,
    );
  }
}
