import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { sandboxCharges } from "../../db/schema";
import type { CardProvider } from "./card-provider";

/**
 * The sandbox's test cards (shown on its card page). Culqi's own test numbers behave as in Culqi
 * (payments.md A.13); 4000 0000 0000 0341 is the sandbox's own: it saves, then every charge is
 * declined, to try renewals that fail.
 */
export const SANDBOX_TEST_CARDS = [
  { number: "4111111111111111", brand: "Visa", result: "Aprobada" },
  { number: "5111111111111118", brand: "Mastercard", result: "Aprobada" },
  { number: "4000040000000008", brand: "Visa", result: "Rechazada al guardar: fondos insuficientes" },
  { number: "4000020000000000", brand: "Visa", result: "Rechazada al guardar: tarjeta robada" },
  { number: "4000000000000341", brand: "Visa", result: "Se guarda, pero los cobros son rechazados" },
] as const;

const SAVE_DECLINES: Record<string, string> = {
  "4000040000000008": "Tu tarjeta no tiene fondos suficientes.",
  "4000020000000000": "Tu banco rechazó la tarjeta. Usa otra tarjeta.",
};
const CHARGES_DECLINED_LAST4 = "0341";

/** A sandbox token is the card itself, base64url-encoded by the sandbox card page: offline, test cards only. */
export function sandboxCardToken(card: { number: string }): string {
  return Buffer.from(JSON.stringify({ number: card.number.replace(/\D/g, "") })).toString("base64url");
}

function cardFromToken(token: string): { number: string } | null {
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { number?: unknown };
    return typeof parsed.number === "string" && /^\d{12,19}$/.test(parsed.number) ? { number: parsed.number } : null;
  } catch {
    // Not a token the sandbox page made: refused as an invalid card, no money involved.
    return null;
  }
}

function brandOf(number: string): string {
  if (number.startsWith("4")) return "Visa";
  if (/^5[1-5]/.test(number)) return "Mastercard";
  if (/^3[47]/.test(number)) return "Amex";
  if (/^3[068]/.test(number)) return "Diners";
  return "Tarjeta";
}

/** Luhn check: the sandbox refuses numbers no card could have, like a real card form. */
export function isPlausibleCardNumber(number: string): boolean {
  const digits = number.replace(/\D/g, "");
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function sandboxCardProvider(db: Database): CardProvider {
  return {
    id: "sandbox",
    async saveCard({ token }) {
      const card = cardFromToken(token);
      if (!card || !isPlausibleCardNumber(card.number)) return { ok: false, message: "El número de tarjeta no es válido." };
      const decline = SAVE_DECLINES[card.number];
      if (decline) return { ok: false, message: decline };
      const last4 = card.number.slice(-4);
      return { ok: true, customerId: null, cardId: `sbx_crd_${randomUUID()}_${last4}`, brand: brandOf(card.number), last4 };
    },
    async chargeCard({ cardId, amountCents, chargeKey }) {
      const declined = cardId.endsWith(`_${CHARGES_DECLINED_LAST4}`);
      const message = declined ? "Tu banco rechazó el cobro (simulación)." : null;
      // The provider's books answer a repeated key with the charge it already made. Written first
      // and read back only on a repeat: one statement per charge, so the renewal bench times the
      // shop rather than its stand-in provider.
      const [row] = await db
        .insert(sandboxCharges)
        .values({ chargeKey, chargeId: `sbx_chr_${randomUUID()}`, cardId, amountCents, paid: !declined, declineMessage: message })
        .onConflictDoNothing()
        .returning();
      const charge = row ?? (await db.select().from(sandboxCharges).where(eq(sandboxCharges.chargeKey, chargeKey)))[0]!;
      return charge.paid ? { outcome: "paid", chargeId: charge.chargeId } : { outcome: "declined", message: charge.declineMessage ?? "Cobro rechazado" };
    },
    async findCharge({ chargeKey }) {
      const [charge] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.chargeKey, chargeKey));
      return charge ? { chargeId: charge.chargeId, paid: charge.paid } : null;
    },
  };
}
