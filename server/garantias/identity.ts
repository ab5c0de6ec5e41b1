import { and, desc, eq, sql } from "drizzle-orm";
import { orders, users } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import type { GarantiaCustomer } from "./ledger";

/** How the customer's bidones were known when an order was priced (orders.garantia_basis). */
export type GarantiaBasis = "account" | "guest_match" | "guest_new";

/**
 * Whose bidones an order swaps (decision 0075). A signed-in customer: their account's ledger. A
 * guest: the ledger of the e-mail they typed only when an earlier order of that e-mail has the same
 * mobile number, so typing someone else's e-mail neither avoids a garantía nor tells whether that
 * address holds bidones (the answer is the same as for an unknown address: every bidón carries
 * one). The basis is recorded on the order.
 */
export async function garantiaCustomerForCheckout(
  db: DatabaseOrTransaction,
  input: { userId: string | null; email: string; phone: string },
): Promise<{ customer: GarantiaCustomer | null; basis: GarantiaBasis }> {
  if (input.userId) {
    const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, input.userId));
    return { customer: { userId: input.userId, email: account?.email ?? input.email }, basis: "account" };
  }
  const email = input.email.trim().toLowerCase();
  const mobile = input.phone.replace(/\D/g, "").slice(-9);
  if (mobile.length !== 9) return { customer: null, basis: "guest_new" };
  const [earlier] = await db
    .select({ userId: orders.userId })
    .from(orders)
    .where(and(eq(orders.customerEmail, email), sql`right(regexp_replace(${orders.customerPhone}, '[^0-9]', '', 'g'), 9) = ${mobile}`))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!earlier) return { customer: null, basis: "guest_new" };
  // Decision 0075: the same e-mail and mobile as an earlier order swap the bidones of that e-mail's
  // ledger, which for a verified account includes its guest rows. Pricing only: the order itself
  // stays a guest order (issue 39) until the account's owner adds it from its e-mail.
  const [account] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.email, email), eq(users.emailVerified, true)));
  return { customer: { userId: account?.id ?? null, email }, basis: "guest_match" };
}
