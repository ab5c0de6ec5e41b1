/**
 * Saved cards for subscriptions, one interface for every provider (conventions: checkout and
 * subscriptions never know which provider is active). Issue 5: the shop keeps its own renewal
 * schedule and charges the saved card itself, because Culqi's subscriptions cannot pause, skip
 * or move a date.
 */
export interface CardHolder {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  address: string;
}

export type SaveCardResult =
  { ok: true; customerId: string | null; cardId: string; brand: string | null; last4: string | null } | { ok: false; message: string };

export type CardChargeResult =
  | { outcome: "paid"; chargeId: string }
  | { outcome: "declined"; message: string }
  /** No answer (timeout, provider down): whether money moved is unknown until reconciled. */
  | { outcome: "unknown"; message: string };

export interface CardProvider {
  id: "sandbox" | "culqi" | "flow";
  /** Turns the token from the provider's card form into a reusable card of this customer. */
  saveCard(input: { holder: CardHolder; token: string; existingCustomerId: string | null }): Promise<SaveCardResult>;
  /**
   * Charges a saved card. `chargeKey` names this attempt; the shop writes it before calling, so
   * after a crash `findCharge` tells whether the attempt reached the provider.
   */
  chargeCard(input: {
    customerId: string | null;
    cardId: string;
    amountCents: number;
    email: string;
    chargeKey: string;
    description: string;
  }): Promise<CardChargeResult>;
  /** The charge made under `chargeKey`, if the provider has one. */
  findCharge(input: { chargeKey: string; email: string; since: Date }): Promise<{ chargeId: string; paid: boolean } | null>;
}
