import { and, count, eq, isNotNull, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "../db/transaction";
import { orders, users } from "../db/schema";

/**
 * decisions.md and decision 0072: a guest's orders (name, address, phone, items, boleta) attach to
 * the account of their email only once that account's owner proved the address and chose the
 * password in the same step (`ownershipProvenAt`). A confirmed address alone is not enough:
 * whoever signed up chose the password, and a mail scanner or a confused recipient can confirm.
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
 * The account a guest checkout with this email belongs to — one whose owner proved the address
 * (decision 0072) — or null, as a subquery: the order's insert reads it itself, one round trip
 * fewer per checkout (decision 0063). A placeholder (a statement prepared once, decision 0069)
 * must be given the email trimmed and in lower case, as checkout's schema gives it.
 */
export function provenAccountIdByEmail(email: string | Placeholder): SQL<string | null> {
  const address = typeof email === "string" ? email.trim().toLowerCase() : email;
  return sql<string | null>`(select ${users.id} from ${users} where ${users.email} = ${address} and ${users.ownershipProvenAt} is not null)`;
}

/**
 * Whether a guest checkout with this email will be filed under an account (the checkout's notice,
 * spec §5): only an account whose owner proved the address receives it.
 */
export async function guestOrdersAttachTo(db: DatabaseOrTransaction, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.trim().toLowerCase()), isNotNull(users.ownershipProvenAt)));
  return Boolean(row);
}

/** Whether an account exists for the email (an account's saved cart is never replaced by a guest's). */
export async function isEmailRegistered(db: DatabaseOrTransaction, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  return Boolean(row);
}
