import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { GarantiaReturnPreference } from "@core/garantia";
import { garantiaEntries, orders, refunds, users } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { availableGarantiaCredit } from "./credit";
import { garantiasOf, heldGarantias, garantiaUnitsOnTheirWay, type GarantiaCustomer } from "./ledger";
import { garantiaPreferenceOf } from "./preferences";

/** How a returned garantía stands, as customers and staff read it. */
export type GarantiaReturnState = "en_proceso" | "devuelta" | "credito" | "retenida" | "requiere_atencion" | "por_devolver_a_mano" | "devuelta_a_mano";

export interface GarantiaReturnRow {
  id: string;
  orderNumber: string;
  units: number;
  amountCents: number;
  outcome: string;
  state: GarantiaReturnState;
  /** The provider's or the job's last message, for staff. */
  lastError: string | null;
  /** `devuelta_a_mano` only: who gave it back by hand and how (staff's note), for staff. */
  settledBy: string | null;
  settledNote: string | null;
  createdAt: string;
}

export interface GarantiaSummary {
  /** Bidones whose garantía the shop holds now, and the money. */
  heldUnits: number;
  heldCents: number;
  /** Bidones of paid orders on their way, whose garantía is charged and not yet held. */
  onTheirWayUnits: number;
  creditCents: number;
  preference: GarantiaReturnPreference;
  returns: GarantiaReturnRow[];
}

function returnState(row: { outcome: string | null; status: string; refundStatus: string | null }): GarantiaReturnState {
  if (row.outcome === "forfeited") return "retenida";
  if (row.status === "returned_by_hand") return "devuelta_a_mano";
  if (row.outcome === "credit") return row.status === "needs_staff" ? "requiere_atencion" : "credito";
  if (row.status === "needs_staff" || row.refundStatus === "failed") return "requiere_atencion";
  if (row.refundStatus === "succeeded") return "devuelta";
  if (row.refundStatus === "manual") return "por_devolver_a_mano";
  return "en_proceso";
}

/** A customer's garantía: what is held, what is on its way, their credit, their choice and the latest returns. */
export async function garantiaSummary(db: DatabaseOrTransaction, customer: GarantiaCustomer): Promise<GarantiaSummary> {
  const held = await heldGarantias(db, customer);
  const onTheirWayUnits = await garantiaUnitsOnTheirWay(db, customer);
  const creditCents = customer.userId ? await availableGarantiaCredit(db, customer.userId) : 0;
  const preference = await garantiaPreferenceOf(db, customer.userId);
  const rows = await db
    .select({
      id: garantiaEntries.id,
      orderNumber: orders.orderNumber,
      units: garantiaEntries.units,
      amountCents: garantiaEntries.amountCents,
      outcome: garantiaEntries.outcome,
      status: garantiaEntries.status,
      lastError: sql<string | null>`coalesce(${refunds.lastError}, ${garantiaEntries.lastError})`,
      refundStatus: refunds.status,
      settledBy: garantiaEntries.settledBy,
      settledNote: garantiaEntries.settledNote,
      createdAt: garantiaEntries.createdAt,
    })
    .from(garantiaEntries)
    .innerJoin(orders, eq(orders.id, garantiaEntries.orderId))
    .leftJoin(refunds, eq(refunds.id, garantiaEntries.refundId))
    .where(and(garantiasOf(customer), eq(garantiaEntries.kind, "released")))
    .orderBy(desc(garantiaEntries.createdAt), desc(garantiaEntries.id))
    .limit(20);
  return {
    heldUnits: held.reduce((sum, row) => sum + row.units, 0),
    heldCents: held.reduce((sum, row) => sum + row.cents, 0),
    onTheirWayUnits,
    creditCents,
    preference,
    returns: rows.map((row) => ({
      id: row.id,
      orderNumber: row.orderNumber,
      units: row.units,
      amountCents: row.amountCents,
      outcome: row.outcome ?? "refund",
      state: returnState(row),
      lastError: row.lastError,
      settledBy: row.settledBy,
      settledNote: row.settledNote,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/**
 * /admin/metricas (decision 0075): the garantías the shop held at `end` (held less released, of
 * every customer) and how many customers they belong to; and the garantías of paid orders not yet
 * delivered at the time of asking, charged and not yet held. One GROUP BY each.
 */
export async function garantiasHeld(
  db: DatabaseOrTransaction,
  end: SQL,
): Promise<{ cents: number; units: number; customers: number; chargedNotDeliveredCents: number }> {
  const signed = (column: SQL | typeof garantiaEntries.units) => sql`case when ${garantiaEntries.kind} = 'held' then ${column} else -${column} end`;
  const perCustomer = db
    .select({
      cents: sql<number>`sum(${signed(sql`${garantiaEntries.amountCents}`)})`.as("cents"),
      units: sql<number>`sum(${signed(garantiaEntries.units)})`.as("units"),
    })
    .from(garantiaEntries)
    .where(sql`${garantiaEntries.createdAt} < ${end}`)
    .groupBy(sql`coalesce(${garantiaEntries.userId}, 'guest:' || ${garantiaEntries.customerEmail})`)
    .as("per_customer");
  const [held] = await db
    .select({
      cents: sql<string>`coalesce(sum(${perCustomer.cents}), 0)::bigint`,
      units: sql<string>`coalesce(sum(${perCustomer.units}), 0)::bigint`,
      customers: sql<string>`count(*) filter (where ${perCustomer.units} > 0)::bigint`,
    })
    .from(perCustomer);
  const [charged] = await db
    .select({ cents: sql<string>`coalesce(sum(${orders.garantiaCents}), 0)::bigint` })
    .from(orders)
    .where(
      sql`${orders.garantiaCents} > 0 and ${orders.status} in ('paid', 'processing', 'shipped') and not exists (select 1 from ${garantiaEntries} where ${garantiaEntries.sourceKey} = 'held:' || ${orders.id}::text)`,
    );
  return {
    cents: Number(held?.cents ?? 0),
    units: Number(held?.units ?? 0),
    customers: Number(held?.customers ?? 0),
    chargedNotDeliveredCents: Number(charged?.cents ?? 0),
  };
}

/** A signed-in customer's own garantía (Mis envíos): their account's ledger. */
export async function garantiaSummaryForUser(db: DatabaseOrTransaction, userId: string): Promise<GarantiaSummary> {
  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const summary = await garantiaSummary(db, { userId, email: account?.email ?? "" });
  // Who among staff gave a garantía back by hand, and their note, are staff's.
  return { ...summary, returns: summary.returns.map((row) => ({ ...row, settledBy: null, settledNote: null })) };
}
