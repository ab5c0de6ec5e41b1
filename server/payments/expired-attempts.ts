import { and, eq, inArray } from "drizzle-orm";
import { payments } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";

/**
 * An order stopped being payable: its attempts still open (`created`, `pending`) end as expired, so
 * a late confirmation goes through the late-settlement rule instead of settling them. The caller
 * holds the order's lock (decision 0025: order before payment).
 */
export async function expireOpenPayments(tx: DatabaseOrTransaction, orderId: string, now: Date): Promise<void> {
  await tx
    .update(payments)
    .set({ status: "expired", updatedAt: now })
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, ["created", "pending"])));
}

/**
 * One attempt the provider says can no longer be paid (a Culqi code that expired): locked, and
 * expired if it is still open. Answers false when it had already ended (paid, failed, expired), so
 * a replayed notice changes nothing. The caller holds the order's lock (decision 0025).
 */
export async function expireOpenPayment(tx: DatabaseOrTransaction, paymentId: string, now: Date): Promise<boolean> {
  const [locked] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  if (locked?.status !== "pending" && locked?.status !== "created") return false;
  await tx.update(payments).set({ status: "expired", updatedAt: now }).where(eq(payments.id, paymentId));
  return true;
}
