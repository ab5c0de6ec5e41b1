import { formatSoles } from "@core/money";
import { button, emailLayout, escapeHtml } from "./layout";

export interface PaymentRefundedData {
  brandName: string;
  firstName: string;
  orderNumber: string;
  amountCents: number;
  /** late_payment: the order had already closed; duplicate_charge: the order was already paid. */
  reason: "late_payment" | "duplicate_charge" | "amount_mismatch";
  receiptUrl: string;
}

const explanations: Record<PaymentRefundedData["reason"], string> = {
  late_payment: "Tu pago llegó cuando el pedido ya había vencido y ya no podíamos entregarlo en la fecha elegida, así que no lo cobramos.",
  duplicate_charge: "Recibimos un segundo pago por un pedido que ya estaba pagado, así que no lo cobramos dos veces.",
  amount_mismatch: "Recibimos un pago cuyo monto no coincidía con el de tu pedido, así que no lo cobramos.",
};

/** Decision 0026-late-payments-and-refunds: the customer hears from us whenever money is sent back. */
export function paymentRefundedEmail(data: PaymentRefundedData) {
  const subject = `Devolvimos tu pago del pedido ${data.orderNumber}`;
  const explanation = explanations[data.reason];
  const timing = "La devolución ya fue solicitada a Culqi; según tu banco, puede tardar algunos días hábiles en verse en tu estado de cuenta.";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>Devolvimos <strong>${formatSoles(data.amountCents)}</strong> de tu pedido <strong>${escapeHtml(data.orderNumber)}</strong>.</p>
<p>${escapeHtml(explanation)}</p>
<p>${escapeHtml(timing)}</p>
<p>Si todavía quieres tu agua, puedes hacer un nuevo pedido cuando quieras.</p>
<p style="margin:24px 0">${button(data.receiptUrl, "Ver mi pedido")}</p>`,
  });
  const text = [
    `Hola, ${data.firstName}`,
    `Devolvimos ${formatSoles(data.amountCents)} de tu pedido ${data.orderNumber}.`,
    explanation,
    timing,
    `Ver tu pedido: ${data.receiptUrl}`,
  ].join("\n");
  return { subject, html, text };
}
