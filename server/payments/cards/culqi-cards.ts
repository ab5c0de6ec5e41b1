import type { CulqiClient } from "../culqi/client";
import type { CardProvider } from "./card-provider";

/**
 * Culqi (payments.md A.7, A.4): the token from Culqi's checkout (cards only) becomes a card of a
 * Culqi customer; renewals charge the card id as `source_id`. Culqi has no idempotency key
 * (A.10): the attempt's key travels in the charge metadata, and a lost answer is found again by
 * listing the customer's charges.
 */
export function culqiCardProvider(client: CulqiClient): CardProvider {
  return {
    id: "culqi",
    async saveCard({ holder, token, existingCustomerId }) {
      const customerId =
        existingCustomerId ??
        (
          await client.createCustomer({
            first_name: holder.firstName,
            last_name: holder.lastName,
            email: holder.email,
            address: holder.address.slice(0, 100),
            address_city: "Lima",
            phone_number: holder.phone,
          })
        )?.id;
      if (!customerId) return { ok: false, message: "No pudimos registrar tu tarjeta en este momento. Intenta nuevamente." };
      const answer = await client.createCard({ customerId, tokenId: token });
      switch (answer.kind) {
        case "saved":
          return {
            ok: true,
            customerId,
            cardId: answer.card.id,
            brand: answer.card.source?.iin?.card_brand ?? null,
            last4: answer.card.source?.last_four ?? null,
          };
        case "review":
          return { ok: false, message: "Tu banco pidió una verificación adicional para guardar la tarjeta. Intenta con otra tarjeta." };
        case "declined":
          return { ok: false, message: answer.userMessage };
        case "unavailable":
          return { ok: false, message: "No pudimos registrar tu tarjeta en este momento. Intenta nuevamente." };
      }
    },
    async chargeCard({ cardId, amountCents, email, chargeKey, description }) {
      const answer = await client.createCharge({ amount: amountCents, email, sourceId: cardId, description, metadata: { charge_key: chargeKey } });
      switch (answer.kind) {
        case "paid":
          return { outcome: "paid", chargeId: answer.charge.id };
        case "declined":
          return { outcome: "declined", message: answer.userMessage };
        case "review":
          return { outcome: "declined", message: "Tu banco pidió una verificación adicional. Actualiza tu tarjeta para continuar." };
        case "unavailable":
          return { outcome: "unknown", message: answer.reason };
      }
    },
    async findCharge({ chargeKey, email, since }) {
      const charges = await client.listCharges({ email, creationDateFrom: since });
      if (charges === null) throw new Error("Culqi did not answer the charge lookup");
      const charge = charges.find((candidate) => candidate.metadata?.charge_key === chargeKey);
      return charge ? { chargeId: charge.id, paid: charge.outcome?.type === "venta_exitosa" } : null;
    },
  };
}
