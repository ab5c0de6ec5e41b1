import { and, asc, desc, eq, notInArray } from "drizzle-orm";
import { priceCartLines, type PricedCartLine } from "../catalog/index.server";
import type { Database } from "../db/client";
import { orderItems, orders } from "../db/schema";
import { checkReorderToken } from "./reorder-link";

/** What the checkout form receives from a repeated order, every field still editable. */
export interface ReorderPrefill {
  nombre?: string;
  apellido?: string;
  correo?: string;
  telefono?: string;
  districtName?: string;
  direccion?: string;
  referencia?: string;
}

export type ReorderCart =
  | {
      ok: true;
      orderNumber: string;
      lines: PricedCartLine[];
      /** Spanish notes for what could not be added (a product withdrawn since). */
      notes: string[];
      purchaseType: "one-time";
      subscriptionFrequency: "mensual" | "anual";
      /** Issue 41: a subscription's order, which the page offers to repeat once or to manage in the subscription. */
      fromSubscription: boolean;
      prefill: ReorderPrefill;
      /**
       * `owner`: the signed-in customer's own order; `link`: a valid e-mail link opened without
       * signing in; `cart_only`: an expired link, or a link opened by another signed-in customer.
       */
      access: "owner" | "link" | "cart_only";
    }
  | { ok: false };

/** Orders that ended without reaching the customer are not where the last address comes from. */
const ENDED_WITHOUT_DELIVERY = ["failed", "cancelled"];

/**
 * "Repetir pedido" (decision 0076): the same products and quantities at today's prices (a product
 * withdrawn since is left out with a note), always as a one-time purchase (issue 41: a
 * subscription's order repeated is one more delivery, not a second subscription), and what the checkout may fill
 * in. Only the order's own customer (signed in) or the holder of the order's signed link sees it.
 * The owner gets the address of their latest order (their profile fills the rest); a valid link
 * gets the order's name, e-mail, phone and address (never its document); an expired link, or a
 * link opened by another signed-in customer, gets the cart alone. Reads only: a GET may call it.
 */
export async function reorderCart(db: Database, input: { orderId: string; userId: string | null; token: string | null; now: Date }): Promise<ReorderCart> {
  const [order] = await db.select().from(orders).where(eq(orders.id, input.orderId));
  if (!order) return { ok: false };
  const owner = input.userId !== null && order.userId === input.userId;
  const link = owner ? null : checkReorderToken(order.id, input.token, input.now);
  if (!owner && !link?.valid) return { ok: false };
  const expired = link?.valid === true && link.expired;
  const access = owner ? "owner" : !expired && input.userId === null ? "link" : "cart_only";

  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
  const priced = await priceCartLines(
    db,
    items.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity })),
  );
  const notes = priced.unavailable.map((line) => {
    const item = items.find((candidate) => candidate.productId === line.productId && candidate.variantId === line.variantId);
    const name = item ? (item.variantTitle ? `${item.title} (${item.variantTitle})` : item.title) : "Un producto";
    return `${name} ya no está disponible y no lo agregamos a tu carrito.`;
  });
  // Issue 41: repeating a subscription's delivery never starts a second subscription.
  if (order.orderType === "subscription")
    notes.push("Este pedido es de una suscripción: lo repetimos como compra única, con los precios de hoy. Tu suscripción sigue igual.");
  if (expired) notes.push("Por tu seguridad, este enlace ya no completa tus datos de contacto ni tu dirección: escríbelos o inicia sesión.");

  return {
    ok: true,
    orderNumber: order.orderNumber,
    lines: priced.lines,
    notes,
    purchaseType: "one-time",
    subscriptionFrequency: order.subscriptionFrequency === "anual" ? "anual" : "mensual",
    fromSubscription: order.orderType === "subscription",
    prefill: access === "owner" ? await lastAddressOf(db, input.userId!) : access === "link" ? contactOf(order) : {},
    access,
  };
}

const addressOf = (order: typeof orders.$inferSelect): ReorderPrefill => ({
  districtName: order.districtName,
  direccion: order.address,
  referencia: order.deliveryNotes ?? "",
});

const contactOf = (order: typeof orders.$inferSelect): ReorderPrefill => ({
  nombre: order.customerFirstName,
  apellido: order.customerLastName,
  correo: order.customerEmail,
  telefono: order.customerPhone,
  ...addressOf(order),
});

/** The address of the customer's latest order that did not end unpaid or cancelled. */
async function lastAddressOf(db: Database, userId: string): Promise<ReorderPrefill> {
  const [latest] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), notInArray(orders.status, ENDED_WITHOUT_DELIVERY)))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return latest ? addressOf(latest) : {};
}
