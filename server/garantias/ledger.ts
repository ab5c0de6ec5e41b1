import { and, asc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { garantiaReturnCents, type GarantiaReturnPreference } from "@core/garantia";
import { garantiaEntries, orders } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { garantiaPreferenceOf } from "./preferences";

/**
 * Whose garantía: the bidones ledger's customer (decision 0032), the account when there is one
 * (with the guest rows of its e-mail), else the order's e-mail.
 */
export interface GarantiaCustomer {
  userId: string | null;
  /** The account's e-mail, or the guest's. */
  email: string;
}

export function garantiasOf(customer: GarantiaCustomer): SQL {
  const email = customer.email.trim().toLowerCase();
  const guestRows = and(isNull(garantiaEntries.userId), eq(garantiaEntries.customerEmail, email))!;
  return customer.userId ? or(eq(garantiaEntries.userId, customer.userId), guestRows)! : guestRows;
}

/**
 * Serialises every change of one customer's garantía ledger (decision 0025: taken after every row
 * lock of the transaction, before reading and writing the ledger; nothing waits for a row after
 * it), so two deliveries confirmed at once never return the same bidón's garantía twice.
 */
async function lockGarantiaLedger(tx: DatabaseOrTransaction, customer: GarantiaCustomer) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`garantia:${customer.email.trim().toLowerCase()}`}))`);
}

/** What is still held of each order's garantía, oldest first: the order a return gives back in. */
export async function heldGarantias(db: DatabaseOrTransaction, customer: GarantiaCustomer) {
  const rows = await db
    .select({
      orderId: garantiaEntries.orderId,
      units: sql<number>`sum(case when ${garantiaEntries.kind} = 'held' then ${garantiaEntries.units} else -${garantiaEntries.units} end)::int`,
      cents: sql<number>`sum(case when ${garantiaEntries.kind} = 'held' then ${garantiaEntries.amountCents} else -${garantiaEntries.amountCents} end)::int`,
      since: sql<Date>`min(${garantiaEntries.createdAt})`,
    })
    .from(garantiaEntries)
    .where(garantiasOf(customer))
    .groupBy(garantiaEntries.orderId)
    .orderBy(sql`3`, asc(garantiaEntries.orderId));
  return rows.map((row) => ({ orderId: row.orderId, units: Number(row.units), cents: Number(row.cents) })).filter((row) => row.units > 0);
}

export type ReturnCause =
  | { kind: "delivery"; deliveryId: string }
  /** Staff recorded bidones returned (decision 0075); a broken bidón's garantía is kept. */
  | { kind: "staff"; requestKey: string; recordedBy: string; goodCondition: boolean; note: string | null };

/**
 * Bidones came home: when the customer now holds fewer of ours than their garantías cover, the
 * difference goes back, oldest garantía first, as the customer prefers (refund or credit; a guest:
 * refund), or is kept for a broken bidón. Written as release rows keyed by the cause and the order,
 * so a repeated confirmation releases nothing twice; the money moves later (the garantías job).
 * Returns the rows written.
 */
export async function releaseReturnedGarantias(
  tx: DatabaseOrTransaction,
  input: { customer: GarantiaCustomer; bidonBalance: number; cause: ReturnCause; now: Date },
): Promise<{ orderId: string; units: number; amountCents: number; outcome: string }[]> {
  await lockGarantiaLedger(tx, input.customer);
  const held = await heldGarantias(tx, input.customer);
  const covered = held.reduce((sum, row) => sum + row.units, 0);
  let excess = covered - Math.max(0, input.bidonBalance);
  if (excess <= 0) return [];
  const outcome: GarantiaReturnPreference | "forfeited" =
    input.cause.kind === "staff" && !input.cause.goodCondition ? "forfeited" : await garantiaPreferenceOf(tx, input.customer.userId);
  const causeKey = input.cause.kind === "delivery" ? `delivery:${input.cause.deliveryId}` : `staff:${input.cause.requestKey}`;
  const releases = [];
  for (const row of held) {
    if (excess <= 0) break;
    const units = Math.min(excess, row.units);
    excess -= units;
    releases.push({
      kind: "released",
      orderId: row.orderId,
      userId: input.customer.userId,
      customerEmail: input.customer.email.trim().toLowerCase(),
      units,
      amountCents: garantiaReturnCents(row.units, row.cents, units),
      deliveryId: input.cause.kind === "delivery" ? input.cause.deliveryId : null,
      outcome,
      // A kept garantía has nothing left to do; the others wait for the job (nota de crédito, refund).
      status: outcome === "forfeited" ? "done" : "pending",
      sourceKey: `release:${causeKey}:${row.orderId}`,
      recordedBy: input.cause.kind === "staff" ? input.cause.recordedBy : null,
      note: input.cause.kind === "staff" ? input.cause.note : null,
      nextAttemptAt: input.now,
      createdAt: input.now,
      updatedAt: input.now,
    });
  }
  const written = await tx
    .insert(garantiaEntries)
    .values(releases)
    .onConflictDoNothing({ target: garantiaEntries.sourceKey })
    .returning({ orderId: garantiaEntries.orderId, units: garantiaEntries.units, amountCents: garantiaEntries.amountCents, outcome: garantiaEntries.outcome });
  return written.map((row) => ({ ...row, outcome: row.outcome! }));
}

/**
 * A delivery was confirmed (in the driver's transaction, after the bidones ledger moved): the
 * order's garantía is held from now on (once per order, the bidones it paid for are at the
 * customer's), then what came back is released. `bidonBalance` is the ledger's balance with this
 * delivery's movements.
 */
export async function recordGarantiaAtDelivery(
  tx: DatabaseOrTransaction,
  input: { order: typeof orders.$inferSelect; deliveryId: string; customer: GarantiaCustomer; bidonBalance: number; now: Date },
) {
  const { order, now } = input;
  // The ledger's lock before its rows (the release below takes it again, a no-op within one transaction).
  await lockGarantiaLedger(tx, input.customer);
  if (order.garantiaUnits > 0 && order.paidAt !== null) {
    await tx
      .insert(garantiaEntries)
      .values({
        kind: "held",
        orderId: order.id,
        userId: input.customer.userId,
        customerEmail: input.customer.email.trim().toLowerCase(),
        units: order.garantiaUnits,
        amountCents: order.garantiaCents,
        deliveryId: input.deliveryId,
        status: "held",
        sourceKey: `held:${order.id}`,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: garantiaEntries.sourceKey });
  }
  return releaseReturnedGarantias(tx, {
    customer: input.customer,
    bidonBalance: input.bidonBalance,
    cause: { kind: "delivery", deliveryId: input.deliveryId },
    now,
  });
}

/**
 * Bidones of garantía orders that are paid but not yet delivered: they will be at the customer's
 * soon, so an order placed meanwhile swaps them instead of paying their garantía again.
 */
export async function garantiaUnitsOnTheirWay(db: DatabaseOrTransaction, customer: GarantiaCustomer): Promise<number> {
  const email = customer.email.trim().toLowerCase();
  const owner = customer.userId
    ? or(eq(orders.userId, customer.userId), and(isNull(orders.userId), eq(orders.customerEmail, email)))
    : eq(orders.customerEmail, email);
  const [row] = await db
    .select({ units: sql<number>`coalesce(sum(${orders.garantiaUnits}), 0)::int` })
    .from(orders)
    .where(
      and(
        owner,
        sql`${orders.garantiaUnits} > 0`,
        inArray(orders.status, ["paid", "processing", "shipped"]),
        sql`not exists (select 1 from ${garantiaEntries} where ${garantiaEntries.sourceKey} = 'held:' || ${orders.id}::text)`,
      ),
    );
  return Number(row?.units ?? 0);
}
