import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { button, emailLayout, escapeHtml } from "./layout";

export interface PaymentLinkEmailData {
  brandName: string;
  firstName: string;
  orderNumber: string;
  amountCents: number;
  /** The order's delivery, as the customer reads it ("jueves 14 de mayo, Mañana (9am - 12pm)"). */
  deliveryLabel: string;
  /** The payment page of the order's attempt (Culqi's or the sandbox's). */
  payUrl: string;
  /** When the attempt stops being payable; the order is cancelled then if unpaid. */
  expiresAt: Date | null;
}

/**
 * "Tu link de pago" (issue 38): the office typed in the customer's order by phone and the customer
 * pays it online, from this link (cards, Yape or a payment code, as the payment page offers).
 */
export function paymentLinkEmail(data: PaymentLinkEmailData) {
  const subject = `Tu link de pago del pedido ${data.orderNumber}`;
  const deadline = data.expiresAt ? `Paga antes del ${formatLimaInstant(data.expiresAt)}; después el pedido se anula y el horario se libera.` : "";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>Registramos por teléfono tu pedido <strong>${escapeHtml(data.orderNumber)}</strong> por <strong>${escapeHtml(formatSoles(data.amountCents))}</strong>.</p>
<p>Entrega: ${escapeHtml(data.deliveryLabel)}.</p>
<p>Págalo con tarjeta, Yape o un código de pago desde este link:</p>
<p style="margin:24px 0">${button(data.payUrl, "Pagar mi pedido")}</p>
${deadline ? `<p>${escapeHtml(deadline)}</p>` : ""}
<p style="font-size:12px;color:#64748b">Si no pediste nada, ignora este correo: no se hará ningún cobro.</p>`,
  });
  const text = [
    `Hola, ${data.firstName}`,
    `Registramos por teléfono tu pedido ${data.orderNumber} por ${formatSoles(data.amountCents)}.`,
    `Entrega: ${data.deliveryLabel}.`,
    `Págalo con tarjeta, Yape o un código de pago desde este link: ${data.payUrl}`,
    ...(deadline ? [deadline] : []),
    "Si no pediste nada, ignora este correo: no se hará ningún cobro.",
  ].join("\n\n");
  return { subject, html, text };
}
