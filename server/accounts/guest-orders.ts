import { and, eq, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, users } from "../db/schema";

/**
 * decisions.md: a guest's orders attach to the account of their email. Only once that email is
 * verified: otherwise anyone could register a stranger's address and read the stranger's orders.
 */
export async function attachGuestOrders(db: Database, account: { userId: string; email: string }): Promise<number> {
  const attached = await db
    .update(orders)
    .set({ userId: account.userId, updatedAt: new Date() })
    .where(and(isNull(orders.userId), sql`lower(${orders.customerEmail}) = ${account.email.toLowerCase()}`))
    .returning({ id: orders.id });
  return attached.length;
}

/**
 * The verified account a guest checkout with this email belongs to, if any (null otherwise), as a
 * subquery: the order's insert reads it itself, one round trip fewer per checkout (decision 0063).
 * A placeholder (a statement prepared once, decision 0069) must be given the email trimmed and in
 * lower case, as checkout's schema gives it.
 */
export function verifiedAccountIdByEmail(email: string | Placeholder): SQL<string | null> {
  const address = typeof email === "string" ? email.trim().toLowerCase() : email;
  return sql<string | null>`(select ${users.id} from ${users} where ${users.email} = ${address} and ${users.emailVerified} = true)`;
}

/** Whether an account exists for the email (the checkout's guest notice, spec §5). */
export async function isEmailRegistered(db: Database, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  return Boolean(row);
}
