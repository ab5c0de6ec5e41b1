import { formatSoles } from "@core/money";
import { button, emailLayout, escapeHtml } from "./layout";

/** How the money goes back, in the customer's words, and when it shows (issue 10: "amount, method, when"). */
export type RefundChannel = "card" | "yape" | "manual" | "sandbox";

const channelText: Record<RefundChannel, { method: string; when: string }> = {
  card: {
    method: "a la tarjeta con la que pagaste",
    when: "Según tu banco, el monto se verá en tu estado de cuenta en 5 a 15 días hábiles.",
  },
  yape: {
    method: "al medio con el que pagaste (Yape, a través de Culqi)",
    when: "Según tu banco o billetera, el monto se verá en 5 a 15 días hábiles.",
  },
  manual: {
    method: "por transferencia bancaria o en efectivo, como lo coordinamos contigo",
    when: "La devolución ya se hizo; si no la ves en 2 días hábiles, respóndenos este correo.",
  },
  sandbox: {
    method: "al medio de pago de prueba (entorno de simulación)",
    when: "En el entorno de prueba la devolución es inmediata.",
  },
};

export interface OrderCancelledData {
  brandName: string;
  firstName: string;
  orderNumber: string;
  reason: string;
  /** What will be given back, when the order was paid; null when nothing was charged. */
  refundCents: number | null;
  /** The money goes back by hand (cash or a Yape code paid offline): staff will contact the customer. */
  manualRefund: boolean;
  receiptUrl: string;
}

/** Issue 10: the customer hears when staff cancel an order before dispatch. */
export function orderCancelledEmail(data: OrderCancelledData) {
  const subject = `Cancelamos tu pedido ${data.orderNumber}`;
  const money =
    data.refundCents === null
      ? "No se realizó ningún cobro por este pedido."
      : data.manualRefund
        ? `Te devolveremos ${formatSoles(data.refundCents)}; como pagaste en efectivo o con código, te contactaremos para coordinar la devolución.`
        : `Te devolveremos ${formatSoles(data.refundCents)} al mismo medio de pago; te escribiremos cuando la devolución esté hecha.`;
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>Cancelamos tu pedido <strong>${escapeHtml(data.orderNumber)}</strong> antes de su despacho.</p>
<p>Motivo: ${escapeHtml(data.reason)}</p>
<p>${escapeHtml(money)}</p>
<p>Si tienes dudas, responde este correo.</p>
<p style="margin:24px 0">${button(data.receiptUrl, "Ver mi pedido")}</p>`,
  });
  const text = [
    `Hola, ${data.firstName}`,
    `Cancelamos tu pedido ${data.orderNumber} antes de su despacho.`,
    `Motivo: ${data.reason}`,
    money,
    `Ver tu pedido: ${data.receiptUrl}`,
  ].join("\n");
  return { subject, html, text };
}

export interface OrderRefundedData {
  brandName: string;
  firstName: string;
  orderNumber: string;
  amountCents: number;
  /** The order's whole payment is back (full refund), or only part of it. */
  full: boolean;
  channel: RefundChannel;
  reason: string;
  receiptUrl: string;
}

/** Issue 10: a refund made by staff, with the amount, how it goes back and when it shows. */
export function orderRefundedEmail(data: OrderRefundedData) {
  const subject = `${data.full ? "Reembolsamos" : "Reembolsamos una parte de"} tu pedido ${data.orderNumber}`;
  const { method, when } = channelText[data.channel];
  const amount = `Te devolvimos ${formatSoles(data.amountCents)} ${method}.`;
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
<p>${escapeHtml(amount)} Pedido <strong>${escapeHtml(data.orderNumber)}</strong>.</p>
<p>Motivo: ${escapeHtml(data.reason)}</p>
<p>${escapeHtml(when)}</p>
<p style="margin:24px 0">${button(data.receiptUrl, "Ver mi pedido")}</p>`,
  });
  const text = [`Hola, ${data.firstName}`, `${amount} Pedido ${data.orderNumber}.`, `Motivo: ${data.reason}`, when, `Ver tu pedido: ${data.receiptUrl}`].join(
    "\n",
  );
  return { subject, html, text };
}
