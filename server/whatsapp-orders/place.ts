import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { checkoutSchema } from "@core/checkout-schema";
import { isoWeekday } from "@core/lima-dates";
import { DOOR_PROVIDER, placeOrder } from "../checkout/index.server";
import type { Database } from "../db/client";
import { orders } from "../db/schema";
import type { SourceOrder } from "./quote";

/** The summary as "Confirmar" places it: what it showed, and whose order it repeats. */
export interface QuoteToPlace {
  id: string;
  userId: string;
  phone: string;
  lines: { productId: number; variantId: number | null; quantity: number }[];
  subtotalCents: number;
  districtId: number;
  address: string;
  lat: number | null;
  lng: number | null;
  deliveryNotes: string | null;
  deliveryDate: string;
  deliveryWindow: string;
}

/**
 * The checkout key of a summary's order: a UUID (version 5 layout) derived from the summary's id,
 * so every "Confirmar" of one summary — a second tap, a typed "sí", an answer retried after a
 * crash — finds the one order its first placed (the orders' unique checkout key, decision 0069).
 */
export function repeatCheckoutKey(quoteId: string): string {
  const hash = createHash("sha256").update(`whatsapp-repeat:${quoteId}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The checkout a summary stands for (decision 0090): its lines, district, address, pin, date and
 * window, its subtotal as the one the customer saw (the server prices again and refuses a
 * difference), the name, e-mail and document of the order it repeats, the number that confirmed,
 * paid at the door in cash; no opt-in boxes. Null when the repeated order's data no longer passes
 * the checkout's rules (then the customer is sent to the web).
 */
export function repeatCheckoutInput(quote: QuoteToPlace, source: SourceOrder) {
  const parsed = checkoutSchema.safeParse({
    checkoutKey: repeatCheckoutKey(quote.id),
    purchaseType: "one-time",
    subscriptionFrequency: "mensual",
    nombre: source.customerFirstName,
    apellido: source.customerLastName,
    correo: source.customerEmail,
    telefono: quote.phone.replace(/^51(?=9\d{8}$)/, ""),
    tipo_documento: source.documentType,
    dni: source.documentNumber,
    ruc: source.ruc ?? undefined,
    razonSocial: source.ruc ? (source.businessName ?? undefined) : undefined,
    districtId: quote.districtId,
    direccion: quote.address,
    referencia: quote.deliveryNotes ?? undefined,
    ubicacion: quote.lat !== null && quote.lng !== null ? { lat: quote.lat, lng: quote.lng } : null,
    diaHabil: isoWeekday(quote.deliveryDate),
    fecha: quote.deliveryDate,
    rangoHorario: quote.deliveryWindow,
    items: quote.lines.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity })),
    promociones: false,
    whatsapp: false,
    clientSubtotalCents: quote.subtotalCents,
    formaPago: "contra_entrega",
    metodoContraEntrega: "efectivo",
  });
  return parsed.success ? parsed.data : null;
}

export type RepeatPlacement =
  | { ok: true; orderId: string; orderNumber: string; created: boolean }
  /** The date, window or district is no longer offered, or the prices changed: a fresh summary answers. */
  | { ok: false; reason: "stale" }
  /** Below the minimum at today's prices, or refused for another reason the web explains. */
  | { ok: false; reason: "cannot" }
  /** Pago contra entrega is not possible now (unpaid orders waiting, or switched off): its message is told. */
  | { ok: false; reason: "refused"; message: string };

/**
 * Places the summary's order through the checkout (server/checkout `placeOrder`), paid at the door
 * ("pago contra entrega", cash), as the account's, recorded in the order's history as by WhatsApp.
 */
export async function placeRepeatOrder(
  db: Database,
  input: NonNullable<ReturnType<typeof repeatCheckoutInput>>,
  options: { now: Date; userId: string; siteUrl: string },
): Promise<RepeatPlacement> {
  const result = await placeOrder(db, input, {
    now: options.now,
    provider: DOOR_PROVIDER,
    userId: options.userId,
    actor: "whatsapp",
    siteUrl: options.siteUrl,
  });
  // Paid at the door, the order is confirmed as it is placed; anything else is not this flow's order.
  if (result.ok && result.nextStep === "pay_at_door") return { ok: true, orderId: result.orderId, orderNumber: result.orderNumber, created: result.created };
  if (result.ok) throw new Error(`A WhatsApp repeat order was placed as ${result.nextStep}, not paid at the door`);
  switch (result.reason) {
    case "slot_taken":
    case "cart_changed":
    case "invalid":
      return { ok: false, reason: "stale" };
    case "unpaid_limit":
    case "door_payment_unavailable":
      return { ok: false, reason: "refused", message: result.message };
    default:
      return { ok: false, reason: "cannot" };
  }
}

/** The order a summary's checkout key placed, if one was placed (a confirmation answered again after a crash). */
export async function orderOfQuote(db: Database, quoteId: string) {
  const [order] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      totalCents: orders.totalCents,
      creditCents: orders.garantiaCreditCents,
      deliveryDate: orders.deliveryDate,
      deliveryWindow: orders.deliveryWindow,
    })
    .from(orders)
    .where(eq(orders.checkoutKey, repeatCheckoutKey(quoteId)));
  return order
    ? {
        id: order.id,
        orderNumber: order.orderNumber,
        payCents: order.totalCents - order.creditCents,
        deliveryDate: order.deliveryDate,
        deliveryWindow: order.deliveryWindow,
      }
    : null;
}
