import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, payments } from "../db/schema";

/** What the Culqi payment page needs: amount, order number, the customer's email for Culqi's form. */
export async function findCulqiPayment(db: Database, paymentId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(paymentId)) return null;
  const [row] = await db
    .select({
      status: payments.status,
      provider: payments.provider,
      amountCents: payments.amountCents,
      paymentCode: payments.paymentCode,
      reference: payments.providerReference,
      orderNumber: orders.orderNumber,
      email: orders.customerEmail,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.id, paymentId));
  if (!row || row.provider !== "culqi") return null;
  return {
    status: row.status,
    amountCents: row.amountCents,
    paymentCode: row.paymentCode,
    orderNumber: row.orderNumber,
    email: row.email,
    culqiOrderId: row.reference?.startsWith("ord_") ? row.reference : null,
  };
}
