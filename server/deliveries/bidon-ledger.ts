import { and, desc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "../db/transaction";
import { bidonMovements, deliveries, users } from "../db/schema";

/**
 * The returnable bidones ledger (issue 10, decision 0032). A customer is the order's
 * account when it has one, else the order's e-mail (a guest). A signed-in customer also owns the
 * movements of guest orders placed with their account's e-mail, so bidones lent before they signed
 * up are not lost.
 */
export interface BidonCustomer {
  userId: string | null;
  /** The account's e-mail for a customer with an account, the order's e-mail for a guest. */
  email: string;
}

export interface BidonBalance {
  lent: number;
  returned: number;
  /** Full bidones still at the customer's: lent − returned. */
  balance: number;
}

export interface BidonMovement {
  id: string;
  kind: "lent" | "returned";
  quantity: number;
  /** Null for bidones staff recorded as returned outside a delivery (decision 0075). */
  deliveryId: string | null;
  deliveryNumber: string | null;
  createdAt: string;
}

/** Whose movements are a customer's; `bidonBalances` joins by the same rule in SQL: change both together. */
function ownedBy(customer: BidonCustomer): SQL {
  const guestRows = and(isNull(bidonMovements.userId), eq(bidonMovements.customerEmail, customer.email.toLowerCase()))!;
  return customer.userId ? or(eq(bidonMovements.userId, customer.userId), guestRows)! : guestRows;
}

export async function bidonBalance(db: DatabaseOrTransaction, customer: BidonCustomer): Promise<BidonBalance> {
  return (await bidonBalances(db, [customer]))[0]!;
}

/** One customer's sums; node-postgres returns aggregates as strings, PGlite as numbers. */
type BalanceRow = { position: number; lent: number | string; returned: number | string };

/**
 * `bidonBalance` of many customers in one statement (a driver's day of stops), in the order given.
 * Each customer is a row of a VALUES list matched against the ledger as `ownedBy` matches it.
 */
export async function bidonBalances(db: DatabaseOrTransaction, customers: readonly BidonCustomer[]): Promise<BidonBalance[]> {
  if (customers.length === 0) return [];
  const asked = sql.join(
    customers.map((customer, index) => sql`(${index}::int, ${customer.userId}::text, ${customer.email.toLowerCase()}::text)`),
    sql`, `,
  );
  const result = await db.execute<BalanceRow>(sql`
    select c.position,
      coalesce(sum(m.quantity) filter (where m.kind = 'lent'), 0)::int as lent,
      coalesce(sum(m.quantity) filter (where m.kind = 'returned'), 0)::int as returned
    from (values ${asked}) as c(position, user_id, email)
    left join ${bidonMovements} m on m.user_id = c.user_id or (m.user_id is null and m.customer_email = c.email)
    group by c.position`);
  const byPosition = new Map((result as unknown as { rows: BalanceRow[] }).rows.map((row) => [Number(row.position), row]));
  return customers.map((_, index) => {
    const row = byPosition.get(index);
    const lent = Number(row?.lent ?? 0);
    const returned = Number(row?.returned ?? 0);
    return { lent, returned, balance: lent - returned };
  });
}

export async function recentBidonMovements(db: DatabaseOrTransaction, customer: BidonCustomer, limit = 10): Promise<BidonMovement[]> {
  const rows = await db
    .select({
      id: bidonMovements.id,
      kind: bidonMovements.kind,
      quantity: bidonMovements.quantity,
      deliveryId: bidonMovements.deliveryId,
      deliveryNumber: deliveries.deliveryNumber,
      createdAt: bidonMovements.createdAt,
    })
    .from(bidonMovements)
    .leftJoin(deliveries, eq(deliveries.id, bidonMovements.deliveryId))
    .where(ownedBy(customer))
    .orderBy(desc(bidonMovements.createdAt), desc(bidonMovements.kind))
    .limit(limit);
  return rows.map((row) => ({ ...row, kind: row.kind as BidonMovement["kind"], createdAt: row.createdAt.toISOString() }));
}

/**
 * Written by the delivered confirmation, inside its transaction. Keyed by delivery and kind, so a
 * confirmation that somehow ran twice still moves the balance once; a zero writes no row.
 */
export async function recordBidonMovements(
  tx: DatabaseOrTransaction,
  input: { deliveryId: string; orderId: string; userId: string | null; email: string; fullLeft: number; emptiesCollected: number; now: Date },
): Promise<void> {
  const rows = (
    [
      ["lent", input.fullLeft],
      ["returned", input.emptiesCollected],
    ] as const
  )
    .filter(([, quantity]) => quantity > 0)
    .map(([kind, quantity]) => ({
      deliveryId: input.deliveryId,
      orderId: input.orderId,
      userId: input.userId,
      customerEmail: input.email.toLowerCase(),
      kind,
      quantity,
      createdAt: input.now,
    }));
  if (rows.length === 0) return;
  await tx
    .insert(bidonMovements)
    .values(rows)
    .onConflictDoNothing({ target: [bidonMovements.deliveryId, bidonMovements.kind] });
}

/** The ledger's customer of an order: its account (with the account's e-mail) or, for a guest, the order's e-mail. */
export async function ledgerCustomerOf(db: DatabaseOrTransaction, order: { userId: string | null; customerEmail: string }): Promise<BidonCustomer> {
  const [account] = order.userId ? await db.select({ email: users.email }).from(users).where(eq(users.id, order.userId)) : [];
  return { userId: order.userId, email: (account?.email ?? order.customerEmail).toLowerCase() };
}

/** What "Mis envíos" shows a signed-in customer: their balance and latest movements. */
export async function bidonSummaryForUser(db: DatabaseOrTransaction, userId: string): Promise<BidonBalance & { movements: BidonMovement[] }> {
  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const customer = { userId, email: account?.email ?? "" };
  const [balance, movements] = [await bidonBalance(db, customer), await recentBidonMovements(db, customer)];
  return { ...balance, movements };
}
