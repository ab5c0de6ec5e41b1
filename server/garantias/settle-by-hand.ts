import { may } from "@core/staff-permissions";
import { and, eq } from "drizzle-orm";
import { formatSoles } from "@core/money";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { garantiaEntries, orders, refunds } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { issueGarantiaCreditNote } from "../invoices/index.server";
import { garantiasOf, type GarantiaCustomer } from "./ledger";

export const SETTLE_NOTE_MAX = 300;

export type GarantiaSettleResult =
  { ok: true; changed: boolean; message: string } | { ok: false; reason: "forbidden" | "not_found" | "refused"; message: string };

class SettleRefused extends Error {
  constructor(
    readonly reason: "forbidden" | "not_found" | "refused",
    message: string,
  ) {
    super(message);
  }
}

/**
 * "Marcar como devuelta a mano" (decision 0075): a garantía return the payment could not give back
 * (`needs_staff`) or whose refund the provider refused, which staff then paid back themselves
 * (transfer, cash at the office). One transaction: the order row locked first, then the release
 * (decision 0025: order, the series counter of its nota de crédito, the release row last; the order
 * lock serialises every writer of a release that is out of the job's hands). Only such a release of
 * this customer, with a refund outcome, may be closed; the closed one answers the same again (a
 * double click); a refusal writes nothing. Writes `returned_by_hand` with who and how, the nota de
 * crédito the automatic path would have issued (once per release), and the audit entry.
 */
export async function settleGarantiaByHand(
  db: Database,
  actor: StaffActor,
  input: { customer: GarantiaCustomer; releaseId: string; note: string; now: Date },
): Promise<GarantiaSettleResult> {
  const { now } = input;
  const note = input.note.trim();
  try {
    // Those of the customer's page settle a garantía by hand (issue 11).
    if (!may(actor.role, "clientes.gestionar")) throw new SettleRefused("forbidden", "Tu rol no puede cerrar devoluciones de garantía.");
    if (note.length === 0 || note.length > SETTLE_NOTE_MAX)
      throw new SettleRefused("refused", `Escribe cómo se devolvió (hasta ${SETTLE_NOTE_MAX} caracteres).`);
    return await inTransaction(db, async (tx) => {
      const [known] = await tx
        .select({ orderId: garantiaEntries.orderId })
        .from(garantiaEntries)
        .where(and(eq(garantiaEntries.id, input.releaseId), eq(garantiaEntries.kind, "released"), garantiasOf(input.customer)));
      if (!known) throw new SettleRefused("not_found", "Esa devolución de garantía no es de este cliente.");
      await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, known.orderId)).for("update");
      const [release] = await tx
        .select({ entry: garantiaEntries, refundStatus: refunds.status })
        .from(garantiaEntries)
        .leftJoin(refunds, eq(refunds.id, garantiaEntries.refundId))
        .where(eq(garantiaEntries.id, input.releaseId));
      const entry = release!.entry;
      if (entry.status === "returned_by_hand") return { ok: true as const, changed: false, message: "Esta garantía ya estaba marcada como devuelta a mano." };
      const needsStaff = entry.status === "needs_staff" || (entry.status === "refunding" && release!.refundStatus === "failed");
      if (entry.outcome !== "refund" || !needsStaff)
        throw new SettleRefused("refused", "Solo se marca como devuelta a mano una garantía que requiere atención.");
      await issueGarantiaCreditNote(tx, entry, now);
      await tx
        .update(garantiaEntries)
        .set({ status: "returned_by_hand", settledBy: actor.email, settledNote: note, settledAt: now, nextAttemptAt: null, updatedAt: now })
        .where(eq(garantiaEntries.id, entry.id));
      await recordStaffAction(tx, actor, {
        action: "garantias.returned_by_hand",
        entityType: "garantia_entry",
        entityId: entry.id,
        before: { status: entry.status, refundStatus: release!.refundStatus ?? null },
        after: { status: "returned_by_hand", amountCents: entry.amountCents, units: entry.units, note },
      });
      return { ok: true as const, changed: true, message: `Garantía de ${formatSoles(entry.amountCents)} marcada como devuelta a mano.` };
    });
  } catch (error) {
    if (error instanceof SettleRefused) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}
