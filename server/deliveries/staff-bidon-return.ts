import { eq } from "drizzle-orm";
import { formatSoles } from "@core/money";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { bidonMovements, users } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { releaseReturnedGarantias } from "../garantias/index.server";
import { bidonBalance, type BidonCustomer } from "./bidon-ledger";

export type StaffBidonReturnResult = { ok: true; changed: boolean; message: string } | { ok: false; message: string };

class ReturnRefused extends Error {}

/**
 * Staff record bidones a customer brought back outside a delivery (decision 0075): a `returned`
 * movement of the bidones ledger, and the garantía of each one released (refund or credit, as the
 * customer prefers; kept when the bidón came back broken). One transaction: the customer's account
 * row first (decision 0025), the movement, the release (its ledger lock last) and the audit entry;
 * a refusal (more bidones than the customer holds) writes nothing. The form's request key makes a
 * double click record it once.
 */
export async function recordStaffBidonReturn(
  db: Database,
  actor: StaffActor,
  input: { customer: BidonCustomer; quantity: number; goodCondition: boolean; note: string | null; requestKey: string; now: Date },
): Promise<StaffBidonReturnResult> {
  const { customer, now } = input;
  try {
    return await inTransaction(db, async (tx) => {
      if (customer.userId) await tx.select({ id: users.id }).from(users).where(eq(users.id, customer.userId)).for("update");
      const [replay] = await tx
        .select({ id: bidonMovements.id })
        .from(bidonMovements)
        .where(eq(bidonMovements.sourceKey, `staff:${input.requestKey}`));
      if (replay) return { ok: true as const, changed: false, message: "Esta devolución ya estaba registrada." };
      const before = await bidonBalance(tx, customer);
      if (input.quantity > before.balance)
        throw new ReturnRefused(
          `El cliente tiene ${before.balance} ${before.balance === 1 ? "bidón nuestro" : "bidones nuestros"}: no puede devolver ${input.quantity}.`,
        );
      await tx.insert(bidonMovements).values({
        deliveryId: null,
        orderId: null,
        userId: customer.userId,
        customerEmail: customer.email.toLowerCase(),
        kind: "returned",
        quantity: input.quantity,
        sourceKey: `staff:${input.requestKey}`,
        recordedBy: actor.email,
        createdAt: now,
      });
      const released = await releaseReturnedGarantias(tx, {
        customer,
        bidonBalance: before.balance - input.quantity,
        cause: { kind: "staff", requestKey: input.requestKey, recordedBy: actor.email, goodCondition: input.goodCondition, note: input.note },
        now,
      });
      const releasedCents = released.reduce((sum, row) => sum + row.amountCents, 0);
      await recordStaffAction(tx, actor, {
        action: "bidones.return",
        entityType: "customer",
        entityId: customer.userId ?? customer.email.toLowerCase(),
        before: { bidones: before.balance },
        after: {
          bidones: before.balance - input.quantity,
          returned: input.quantity,
          goodCondition: input.goodCondition,
          garantiaCents: releasedCents,
          note: input.note,
        },
      });
      const garantia =
        releasedCents === 0
          ? "No había garantía pagada por esos bidones."
          : input.goodCondition
            ? `Se devuelve su garantía: ${formatSoles(releasedCents)}.`
            : `La garantía (${formatSoles(releasedCents)}) queda retenida por el bidón dañado.`;
      return {
        ok: true as const,
        changed: true,
        message: `Devolución de ${input.quantity} ${input.quantity === 1 ? "bidón" : "bidones"} registrada. ${garantia}`,
      };
    });
  } catch (error) {
    if (error instanceof ReturnRefused) return { ok: false, message: error.message };
    throw error;
  }
}
