import { paymentMethods } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import type { CardProvider } from "../payments/index.server";

/** A card the provider saved for the customer (its `saveCard` answer when it succeeded). */
type SavedCard = Extract<Awaited<ReturnType<CardProvider["saveCard"]>>, { ok: true }>;

/**
 * Keeps a card the provider saved as one of the customer's payment methods, for the subscription
 * to be charged on (spec §4 tokenize_card): at sign-up and when the customer changes the card.
 * Returns the new method's id.
 */
export async function keepSavedCard(
  db: DatabaseOrTransaction,
  input: { userId: string; provider: CardProvider["id"]; card: SavedCard; now: Date },
): Promise<string> {
  const [method] = await db
    .insert(paymentMethods)
    .values({
      userId: input.userId,
      provider: input.provider,
      providerCustomerId: input.card.customerId,
      providerCardId: input.card.cardId,
      brand: input.card.brand,
      last4: input.card.last4,
      createdAt: input.now,
    })
    .returning({ id: paymentMethods.id });
  return method!.id;
}
