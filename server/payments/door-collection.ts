import { and, desc, eq, inArray } from "drizzle-orm";
import { payments } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import type { PaymentOrderSteps } from "./order-steps";
import { settlePaymentInTransaction } from "./settle";

/** Codes a driver may take in their stead at the door: cash codes and Yape. */
const COLLECTABLE_METHODS = ["cash", "yape"];

/**
 * The open code a driver would collect for this order, if any (read in the caller's transaction).
 * With `lock`, the payment row is locked too: the caller holds the order's lock and takes this
 * before the delivery's (decision 0025: order → payment → delivery).
 */
export async function findPaymentToCollect(
  tx: DatabaseOrTransaction,
  orderId: string,
  options: { lock?: boolean } = {},
): Promise<{ id: string; amountCents: number } | null> {
  const query = tx
    .select({ id: payments.id, amountCents: payments.amountCents })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.method, COLLECTABLE_METHODS), eq(payments.status, "pending")))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  return row ?? null;
}

/**
 * The repartidor took the order's money at the door: the open payment is settled as any payment
 * is (order paid, invoice numbered, confirmation e-mail), in the driver's transaction, and marked
 * as collected so that the code, if the customer also pays it, counts as a second payment.
 * The caller holds the order's lock; this takes the payment's (decision 0025: order → payment).
 */
export async function settleCollectedAtDoor(
  tx: DatabaseOrTransaction,
  paymentId: string,
  details: { now: Date; method: "cash" | "yape"; driverEmail: string; siteUrl: string; phoneTime?: Date | null },
  orderSteps: PaymentOrderSteps,
): Promise<{ alreadySettled: boolean }> {
  const settled = await settlePaymentInTransaction(
    tx,
    paymentId,
    { now: details.now, method: details.method, actor: details.driverEmail, siteUrl: details.siteUrl },
    orderSteps,
  );
  if (!settled.alreadySettled)
    await tx
      .update(payments)
      .set({ collectedAtDoorBy: details.driverEmail, doorPhoneTime: details.phoneTime ?? null })
      .where(eq(payments.id, paymentId));
  return settled;
}
