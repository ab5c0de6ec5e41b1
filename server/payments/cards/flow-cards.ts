import type { FlowClient } from "../flow/client";
import type { CardProvider } from "./card-provider";

/** Spec §8 'status not success': what the customer reads when Flow says the card was not registered. */
export const FLOW_REGISTRATION_FAILED = "Registro de tarjeta fallido. Por favor intenta nuevamente.";
const FLOW_UNAVAILABLE = "No pudimos confirmar tu tarjeta con Flow en este momento. Intenta nuevamente.";
const NOT_YOUR_REGISTRATION = "Este registro de tarjeta no pertenece a tu cuenta.";
const CHARGE_DECLINED = "Flow rechazó el cobro a tu tarjeta. Registra otra tarjeta para continuar.";

/**
 * A Flow customer holds one card at a time, and its charges name the customer, so the customer
 * is the card. The registration token is added to the reference because the shop keeps one
 * row per saved card and a customer registers again when the card changes (decision 0021).
 */
export function flowCardReference(customerId: string, registrationToken: string): string {
  return `${customerId}:${registrationToken}`;
}

function customerOf(reference: { customerId: string | null; cardId: string }): string {
  return reference.customerId ?? reference.cardId.split(":")[0]!;
}

/**
 * Flow (payments.md B.2): the card is registered on Flow's own page; the token Flow posts back is
 * looked up with `customer/getRegisterStatus` (status "1" = registered, per Flow's spec). Charges
 * go through `customer/charge` with the shop's attempt key as `commerceOrder`, and a lost answer
 * is found again with `payment/getStatusByCommerceId`.
 */
export function flowCardProvider(client: FlowClient): CardProvider {
  return {
    id: "flow",
    async saveCard({ holder, token }) {
      const status = await client.getRegisterStatus(token);
      if (status.kind === "unavailable") return { ok: false, message: FLOW_UNAVAILABLE };
      if (status.kind === "refused" || status.body.status !== "1") return { ok: false, message: FLOW_REGISTRATION_FAILED };
      // The token travels through the browser: the card must be on a Flow customer this shop
      // created for this very account (same email; emails cannot change), or anyone holding
      // someone else's token could charge their card.
      const customer = await client.getCustomer(status.body.customerId);
      if (customer.kind === "unavailable") return { ok: false, message: FLOW_UNAVAILABLE };
      if (customer.kind === "refused" || customer.body.email.trim().toLowerCase() !== holder.email.trim().toLowerCase())
        return { ok: false, message: NOT_YOUR_REGISTRATION };
      return {
        ok: true,
        customerId: status.body.customerId,
        cardId: flowCardReference(status.body.customerId, token),
        brand: status.body.creditCardType || null,
        last4: status.body.last4CardDigits || null,
      };
    },
    async chargeCard({ customerId, cardId, amountCents, chargeKey, description }) {
      const answer = await client.chargeCustomer({
        customerId: customerOf({ customerId, cardId }),
        amountCents,
        subject: description,
        commerceOrder: chargeKey,
      });
      if (answer.kind === "unavailable") return { outcome: "unknown", message: answer.reason };
      // A business error (no card registered, card refused) is a decline: nothing was charged.
      if (answer.kind === "refused") return { outcome: "declined", message: CHARGE_DECLINED };
      switch (answer.body.status) {
        case 2:
          return { outcome: "paid", chargeId: String(answer.body.flowOrder) };
        case 3:
        case 4:
          return { outcome: "declined", message: CHARGE_DECLINED };
        default:
          // 1: pending. Whether money moves is decided later; the reconciler asks by key.
          return { outcome: "unknown", message: `Flow payment ${answer.body.flowOrder} pending` };
      }
    },
    async findCharge({ chargeKey }) {
      const answer = await client.paymentByCommerceOrder(chargeKey);
      // Flow answers a business error when it holds no payment under this commerce order.
      if (answer.kind === "refused") return null;
      if (answer.kind === "unavailable") throw new Error(`Flow did not answer the charge lookup (${answer.reason})`);
      if (answer.body.status === 1) throw new Error(`Flow payment ${answer.body.flowOrder} still pending`);
      return { chargeId: String(answer.body.flowOrder), paid: answer.body.status === 2 };
    },
  };
}
