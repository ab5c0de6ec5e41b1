/**
 * Pago contra entrega (issue 38): the customer pays the driver at the door, in cash or by Yape to
 * the shop's own account. The rules the checkout, the staff's "Nuevo pedido", the receipt, the
 * e-mails and the driver's stop all read, so they say the same thing.
 */
import { formatSoles } from "./money";

export type DoorPaymentMethod = "cash" | "yape";

/** The form's words for the two ways (checkout's `metodoContraEntrega`). */
export const DOOR_METHOD_BY_CHOICE = { efectivo: "cash", yape: "yape" } as const satisfies Record<string, DoorPaymentMethod>;

/** How many unpaid orders (contra entrega and payment codes alike) one phone, or one address, may hold at once. */
export const MAX_OPEN_UNPAID_ORDERS = 3;

export const UNPAID_LIMIT_MESSAGE = `Ya tienes ${MAX_OPEN_UNPAID_ORDERS} pedidos por pagar con este celular o en esta dirección. Págalos, espera a recibirlos o escríbenos por WhatsApp para hacer otro.`;

export const PAYS_WITH_TOO_LOW = "El monto con el que pagas debe ser igual o mayor al total";

/** The change the driver brings: what the customer pays with less the amount; null when they did not say, or pay exact. */
export function changeToBring(amountCents: number, paysWithCents: number | null): number | null {
  if (paysWithCents === null || paysWithCents <= amountCents) return null;
  return paysWithCents - amountCents;
}

/** "Pagarás S/ 84.00 al recibir (efectivo, llevamos vuelto de S/ 16.00)": the receipt, the e-mail and WhatsApp. */
export function payAtDoorSentence(amountCents: number, method: DoorPaymentMethod, paysWithCents: number | null): string {
  return `Pagarás ${formatSoles(amountCents)} al recibir (${doorMethodNote(amountCents, method, paysWithCents)})`;
}

function doorMethodNote(amountCents: number, method: DoorPaymentMethod, paysWithCents: number | null): string {
  if (method === "yape") return "Yape o Plin al número de la tienda que te muestra el repartidor";
  const change = changeToBring(amountCents, paysWithCents);
  return change === null ? "efectivo" : `efectivo, llevamos vuelto de ${formatSoles(change)}`;
}

/**
 * The driver's stop, after "Cobrar S/ 84.00": "efectivo (paga con S/ 100.00: vuelto S/ 16.00)",
 * "efectivo" or "Yape".
 */
export function collectMethodNote(amountCents: number, method: DoorPaymentMethod, paysWithCents: number | null): string {
  if (method === "yape") return "Yape";
  const change = changeToBring(amountCents, paysWithCents);
  return change === null ? "efectivo" : `efectivo (paga con ${formatSoles(paysWithCents!)}: vuelto ${formatSoles(change)})`;
}

export type DoorPaymentCustomers = "all" | "delivered";

export interface DoorPaymentSettings {
  enabled: boolean;
  maxCents: number;
  customers: DoorPaymentCustomers;
}

/**
 * Why contra entrega is not offered for this order, in the customer's words, or null when it is.
 * `hasDeliveredOrder`: the signed-in account (or the customer staff picked) has a delivered order.
 */
export function doorPaymentRefusal(
  settings: DoorPaymentSettings,
  order: { districtOffers: boolean; totalCents: number; hasDeliveredOrder: boolean },
): string | null {
  if (!settings.enabled) return "Por ahora no ofrecemos pago contra entrega. Elige otro medio de pago.";
  if (!order.districtOffers) return "En tu distrito aún no ofrecemos pago contra entrega. Elige otro medio de pago.";
  if (order.totalCents > settings.maxCents)
    return `El pago contra entrega es para pedidos de hasta ${formatSoles(settings.maxCents)}. Elige otro medio de pago.`;
  if (settings.customers === "delivered" && !order.hasDeliveredOrder)
    return "El pago contra entrega es para clientes que ya recibieron un pedido. Inicia sesión o elige otro medio de pago.";
  return null;
}
