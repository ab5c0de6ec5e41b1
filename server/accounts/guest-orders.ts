import { and, count, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "../db/transaction";
import { orders, users } from "../db/schema";

/**
 * decisions.md and decision 0072: a guest's orders (name, address, phone, items, boleta) attach to
 * the account of their email only once that account's owner proved the address and chose the
 * password in the same step (`ownershipProvenAt`). A confirmed address alone is not enough:
 * whoever signed up chose the password, and a mail scanner or a confused recipient can confirm.
 * Only at that first proof (issue 39): the orders waiting then were placed before the owner proved
 * the address, and the page of the link told them how many; a guest order placed afterwards is
 * added one by one, by its owner, from its confirmation e-mail (order-claim.ts).
 * Callers lock the user's row first (decision 0025: customer before order).
 */
export async function attachGuestOrders(db: DatabaseOrTransaction, account: { userId: string; email: string }): Promise<number> {
  const attached = await db
    .update(orders)
    .set({ userId: account.userId, updatedAt: new Date() })
    .where(and(isNull(orders.userId), sql`lower(${orders.customerEmail}) = ${account.email.toLowerCase()}`))
    .returning({ id: orders.id });
  return attached.length;
}

/** How many guest orders of this address wait for an account (the confirmation page offers them). */
export async function countGuestOrders(db: DatabaseOrTransaction, email: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(orders)
    .where(and(isNull(orders.userId), sql`lower(${orders.customerEmail}) = ${email.trim().toLowerCase()}`));
  return Number(row?.total ?? 0);
}

/**
 * The account whose owner proved this address (decision 0072), or null. A guest checkout with the
 * address is never filed under it (issue 39): the checkout's notice says the order can be added to
 * the account from the confirmation e-mail, and that e-mail carries the link (order-claim.ts).
 */
export async function provenAccountOf(db: DatabaseOrTransaction, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.trim().toLowerCase()), isNotNull(users.ownershipProvenAt)));
  return row?.id ?? null;
}

/** Whether an account exists for the email (an account's saved cart is never replaced by a guest's). */
export async function isEmailRegistered(db: DatabaseOrTransaction, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  return Boolean(row);
}
