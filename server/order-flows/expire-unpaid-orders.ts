import { and, inArray, lte } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders } from "../db/schema";
import { clearRowFailures, inRowSavepoint } from "../db/row-failures";
import { inTransaction } from "../db/transaction";
import { transitionOrder } from "../orders/index.server";
import { expireOpenPayments } from "../payments/index.server";

const EXPIRE_JOB = "expire unpaid orders";

/**
 * Unpaid orders stop being payable at `expiresAt` (a card attempt after its short window, a cash
 * code after its expiry): they are cancelled and their open payment attempts marked expired.
 * Each order is claimed with SKIP LOCKED, so concurrent runs never process one twice.
 */
export async function expireUnpaidOrders(db: Database, now: Date): Promise<number> {
  let expired = 0;
  await inTransaction(db, async (tx) => {
    const due = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(inArray(orders.status, ["pending", "payment_created"]), lte(orders.expiresAt, now)))
      .limit(100)
      .for("update", { skipLocked: true });
    const handled: string[] = [];
    for (const order of due) {
      // One order that will not expire (a bad row) is recorded and never blocks the others (decision 0025).
      const ok = await inRowSavepoint(tx, EXPIRE_JOB, order.id, now, async (tx) => {
        const changed = await transitionOrder(tx, order.id, "cancelled", { actor: "system", now, note: "Pago no completado a tiempo" });
        await expireOpenPayments(tx, order.id, now);
        if (changed) expired += 1;
      });
      if (ok) handled.push(order.id);
    }
    await clearRowFailures(tx, EXPIRE_JOB, handled);
  });
  return expired;
}
