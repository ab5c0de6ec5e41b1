import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { paymentMethods, subscriptionEvents, subscriptions } from "../db/schema";
import { notifySubscriber } from "./notify";

export type BillingMethodResult = { ok: true } | { ok: false; reason: "not_found" } | { ok: false; reason: "invalid"; message: string };

/**
 * Issue 5: a customer may pay each period through an emailed link (Yape, or any method of the
 * payment page) instead of the saved card. Going back to the card needs a saved card.
 */
export async function setBillingMethod(db: Database, input: { userId: string; subscriptionId: string; method: "card" | "payment_link"; now: Date; siteUrl: string }): Promise<BillingMethodResult> {
  return db.transaction(async (tx) => {
    const [subscription] = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.id, input.subscriptionId), eq(subscriptions.userId, input.userId)))
      .for("update");
    if (!subscription) return { ok: false, reason: "not_found" };
    if (subscription.status === "cancelled" || subscription.status === "pending_payment") return { ok: false, reason: "invalid", message: "Esta suscripción no admite cambios." };
    if (subscription.billingMethod === input.method) return { ok: true };
    if (input.method === "card") {
      const [card] = subscription.paymentMethodId
        ? await tx.select().from(paymentMethods).where(and(eq(paymentMethods.id, subscription.paymentMethodId), isNull(paymentMethods.revokedAt)))
        : [];
      if (!card) return { ok: false, reason: "invalid", message: "Registra una tarjeta para pagar con ella cada periodo." };
    }
    await tx.update(subscriptions).set({ billingMethod: input.method, updatedAt: input.now }).where(eq(subscriptions.id, subscription.id));
    const change = input.method === "payment_link" ? "Desde ahora te enviaremos un enlace para pagar cada periodo (Yape, tarjeta o efectivo)." : "Desde ahora cobraremos cada periodo a tu tarjeta registrada.";
    await tx.insert(subscriptionEvents).values({ subscriptionId: subscription.id, kind: "billing_method_changed", description: change, actor: "customer", createdAt: input.now });
    await notifySubscriber(tx, subscription, { dedupeKey: `billing-method:${subscription.id}:${input.method}:${input.now.toISOString().slice(0, 16)}`, kind: "subscription_changed", email: { type: "changed", change }, now: input.now, siteUrl: input.siteUrl });
    return { ok: true };
  });
}
