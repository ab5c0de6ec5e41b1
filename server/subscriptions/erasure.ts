import { and, asc, eq, isNull } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import { paymentMethods, subscriptionEvents, subscriptions } from "../db/schema";
import type { Transaction } from "../db/transaction";

/**
 * Issue 11, Ley 29733 anonymisation (decision 0051): every subscription of the customer that has
 * not ended is cancelled at once (no later charge, no later delivery), with an event naming the
 * staff member, and every subscription forgets its delivery address. Saved card references are
 * marked revoked so no renewal can use them. Runs inside the anonymisation's transaction, after the
 * customer's row is locked (decision 0025: customer → subscription); rows are taken in id order.
 * No e-mail: the address is about to be erased. Returns how many subscriptions it cancelled.
 */
export async function endSubscriptionsForErasure(
  tx: Transaction,
  input: { userId: string; actorEmail: string; placeholderAddress: string; now: Date },
): Promise<number> {
  const owned = await tx
    .select({ id: subscriptions.id, status: subscriptions.status })
    .from(subscriptions)
    .where(eq(subscriptions.userId, input.userId))
    .orderBy(asc(subscriptions.id))
    .for("update");
  let cancelled = 0;
  for (const subscription of owned) {
    const ending = subscription.status !== "cancelled";
    await tx
      .update(subscriptions)
      .set({
        address: input.placeholderAddress,
        addressLat: null,
        addressLng: null,
        ...(ending ? { status: "cancelled", endsOn: limaToday(input.now), cancelledAt: input.now, cancelReason: ERASURE_REASON, pendingFrequency: null } : {}),
        updatedAt: input.now,
      })
      .where(eq(subscriptions.id, subscription.id));
    if (ending) {
      cancelled += 1;
      await tx.insert(subscriptionEvents).values({
        subscriptionId: subscription.id,
        kind: "cancelled",
        description: "Suscripción cancelada al anonimizar los datos personales del cliente (Ley 29733).",
        actor: input.actorEmail,
        details: { reason: "anonymization", previousStatus: subscription.status },
        createdAt: input.now,
      });
    }
  }
  await tx
    .update(paymentMethods)
    .set({ revokedAt: input.now })
    .where(and(eq(paymentMethods.userId, input.userId), isNull(paymentMethods.revokedAt)));
  return cancelled;
}

const ERASURE_REASON = "Anonimización de datos personales a pedido del cliente (Ley 29733)";
