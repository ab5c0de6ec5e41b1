/** Every status of the order machine (server/orders/order-status.ts), here so pages can list them too. */
export const orderStatuses = ["pending", "payment_created", "paid", "processing", "shipped", "delivered", "failed", "cancelled", "refunded"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** Spec §4 and §9 labels for order statuses and payment methods, shared by the server and the pages. */
export const orderStatusLabels: Record<string, string> = {
  pending: "Pendiente",
  payment_created: "Pago iniciado",
  paid: "Pagado",
  processing: "Procesando",
  shipped: "En camino",
  delivered: "Entregado",
  failed: "Fallido",
  cancelled: "Cancelado",
  canceled: "Cancelado",
  refunded: "Reembolsado",
};

export function orderStatusLabel(status: string): string {
  return orderStatusLabels[status] ?? "Desconocido";
}

export const paymentMethodLabels: Record<string, string> = {
  card: "Tarjeta",
  yape: "Yape",
  cash: "Pago en efectivo",
  credit_card: "Tarjeta de crédito",
  debit_card: "Tarjeta de débito",
  pago_efectivo: "Pago en efectivo",
};

/** Spec §3 order_type, as the account pages name it. */
export const orderTypeLabels: Record<string, string> = {
  "one-time": "Única",
  subscription: "Suscripción",
};

/** Statuses of a payment attempt (server/db/schema/payments.ts). */
export const paymentStatusLabels: Record<string, string> = {
  created: "Iniciado",
  pending: "Pendiente de pago",
  succeeded: "Aprobado",
  failed: "Rechazado",
  expired: "Vencido",
};

/**
 * Where an order stands with its payment, for the pages that wait for it (/success): still
 * awaiting it, paid (every status the order reaches after payment), or ended without a payment
 * to wait for (failed, cancelled, refunded). Only `awaiting` is worth asking the server again.
 */
export type PaymentStage = "awaiting" | "paid" | "ended";

export function paymentStage(status: string): PaymentStage {
  if (status === "pending" || status === "payment_created") return "awaiting";
  if (status === "paid" || status === "processing" || status === "shipped" || status === "delivered") return "paid";
  return "ended";
}

/**
 * How staff read who moved an attempt's money (issue 41: never a raw provider code). The spec's
 * payment labels (§ "Payment labels") stay the method's name; the provider is said beside it.
 */
export const paymentProviderLabels: Record<string, string> = {
  sandbox: "Pasarela de prueba",
  culqi: "Culqi",
  flow: "Flow",
  contra_entrega: "Contra entrega",
};

/**
 * The means of one payment attempt, in words that tell the two kinds of cash apart (issue 41): a
 * code paid at an agent, a bank app or a wallet is "Pago en efectivo (código PagoEfectivo)"; money
 * handed to the driver is "Contra entrega · efectivo" (or Yape at the door).
 */
export function paymentMeansLabel(provider: string, method: string | null): string {
  if (provider === "contra_entrega") return `Contra entrega · ${method === "yape" ? "Yape al recibir" : "efectivo al recibir"}`;
  if (method === "cash" || method === "pago_efectivo") return "Pago en efectivo (código PagoEfectivo)";
  if (!method) return "Medio por definir";
  return paymentMethodLabels[method] ?? method;
}

/** Why money went back (server/db/schema/payments.ts `refunds.reason`). */
export const refundReasonLabels: Record<string, string> = {
  late_payment: "Pago tardío",
  duplicate_charge: "Cobro duplicado",
  amount_mismatch: "Monto distinto",
  staff_refund: "Reembolso hecho por el equipo",
  order_cancelled: "Reembolso por cancelación",
  garantia_return: "Devolución de garantía",
};

/** Where a refund stands; `manual` waits for staff to hand the money back and mark it. */
export const refundStatusLabels: Record<string, string> = {
  pending: "En proceso",
  succeeded: "Devuelto",
  manual: "Por devolver a mano",
  failed: "Rechazado",
};
