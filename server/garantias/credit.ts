import { and, eq, notInArray, sql } from "drizzle-orm";
import { garantiaEntries, orders, users } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { garantiasOf } from "./ledger";

/** Orders whose garantía credit is given back: they ended without the sale (decision 0075). */
const CREDIT_RETURNING_STATUSES = ["failed", "cancelled", "refunded"];

/**
 * A customer's garantía credit (decision 0075): the garantías returned as credit, less what their
 * orders used, except orders that ended unpaid, cancelled or refunded (their credit comes back by
 * itself, with no path to remember it). Accounts only: a guest's returns are always refunds.
 */
export async function availableGarantiaCredit(db: DatabaseOrTransaction, userId: string): Promise<number> {
  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!account) return 0;
  const [granted] = await db
    .select({ cents: sql<number>`coalesce(sum(${garantiaEntries.amountCents}), 0)::int` })
    .from(garantiaEntries)
    .where(and(garantiasOf({ userId, email: account.email }), eq(garantiaEntries.kind, "released"), eq(garantiaEntries.outcome, "credit")));
  const [used] = await db
    .select({ cents: sql<number>`coalesce(sum(${orders.garantiaCreditCents}), 0)::int` })
    .from(orders)
    .where(and(eq(orders.userId, userId), sql`${orders.garantiaCreditCents} > 0`, notInArray(orders.status, CREDIT_RETURNING_STATUSES)));
  return Math.max(0, Number(granted?.cents ?? 0) - Number(used?.cents ?? 0));
}

/**
 * Locks the customer (decision 0025: after the reference rows, before the order) so two checkouts
 * of one account never spend the same credit; then reads it. For the checkout's transaction.
 */
export async function lockGarantiaCredit(tx: DatabaseOrTransaction, userId: string): Promise<number> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  return availableGarantiaCredit(tx, userId);
}
