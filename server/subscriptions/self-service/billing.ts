import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../db/client";
import { paymentMethods, subscriptions } from "../../db/schema";
import { changeOwnedSubscription, refuse, stateRefusal, type SelfServiceContext, type SelfServiceResult } from "./change";

/**
 * Issue 5: a customer may pay each period through an emailed link (Yape, or any method of the
 * payment page) instead of the saved card; going back to the card needs a saved card.
 */
export async function changeBillingMethod(db: Database, input: SelfServiceContext & { method: string }): Promise<SelfServiceResult> {
  return changeOwnedSubscription(db, input, "billing", async (tx, subscription) => {
    const refusal = stateRefusal(subscription, "billing");
    if (refusal) return refusal;
    if (input.method !== "card" && input.method !== "payment_link") return refuse("Elige cómo quieres pagar cada periodo", "method");
    if (input.method === subscription.billingMethod) return refuse("Ya pagas así cada periodo", "method");
    if (input.method === "card") {
      const [card] = subscription.paymentMethodId
        ? await tx
            .select({ id: paymentMethods.id })
            .from(paymentMethods)
            .where(and(eq(paymentMethods.id, subscription.paymentMethodId), isNull(paymentMethods.revokedAt)))
        : [];
      if (!card) return refuse("Registra una tarjeta para pagar con ella cada periodo.", "method");
    }
    await tx.update(subscriptions).set({ billingMethod: input.method, updatedAt: input.now }).where(eq(subscriptions.id, subscription.id));
    return {
      kind: "billing_method_changed",
      description:
        input.method === "payment_link"
          ? "Desde ahora te enviaremos un enlace para pagar cada periodo (Yape, tarjeta o efectivo)."
          : "Desde ahora cobraremos cada periodo a tu tarjeta registrada.",
      details: { previous: subscription.billingMethod, method: input.method },
    };
  });
}
