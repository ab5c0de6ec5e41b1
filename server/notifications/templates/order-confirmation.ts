import { formatSoles } from "@core/money";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { formatLimaDate } from "@core/lima-dates";
import { pausedDeliveryNote } from "@core/delivery-labels";
import { button, emailLayout, escapeHtml } from "./layout";

export interface OrderConfirmationData {
  brandName: string;
  orderNumber: string;
  /** Null for an order paid at the door (issue 38): its comprobante is issued when the driver collects. */
  invoiceNumber: string | null;
  /** Issue 38: "Pagarás S/ 84.00 al recibir (efectivo, …)" for an order confirmed without an online payment. */
  payAtDoor?: string;
  firstName: string;
  totalCents: number;
  /** A subscription's order: "Suscripción Mensual · Entrega semanal (4 al mes)" (`orderPlanLabel`, decision 0097). */
  plan?: string | null;
  items: { title: string; variantTitle: string | null; quantity: number; lineTotalCents: number }[];
  address: string;
  districtName: string;
  /** Null while the delivery waits for its paused subscription (decision 0066). */
  deliveryDate: string | null;
  deliveryPausedUntil: string | null;
  deliveryWindow: string;
  receiptUrl: string;
  /** "Repetir pedido" (decision 0076): the signed link that fills the cart again. */
  reorderUrl?: string;
  /**
   * Issue 39: a guest order whose address is a proven account's carries the signed link with which
   * the account's owner, signed in, adds it to "Mis pedidos" (it is never filed there by itself).
   */
  attachUrl?: string;
  /** The bidón garantía inside the total and the credit that paid part of it (decision 0075). */
  garantiaCents?: number;
  garantiaUnits?: number;
  garantiaCreditCents?: number;
}

export function orderConfirmationEmail(data: OrderConfirmationData) {
  const subject = data.payAtDoor ? `Pedido ${data.orderNumber} confirmado: pagas al recibir` : `Pedido ${data.orderNumber} confirmado`;
  const delivery =
    data.deliveryDate === null
      ? pausedDeliveryNote(data.deliveryPausedUntil)
      : `${formatLimaDate(data.deliveryDate)}, ${deliveryWindowLabel(data.deliveryWindow)}`;
  const rows = data.items
    .map(
      (item) =>
        `<tr><td style="padding:6px 0">${item.quantity} × ${escapeHtml(item.title)}${item.variantTitle ? ` (${escapeHtml(item.variantTitle)})` : ""}</td><td align="right">${formatSoles(item.lineTotalCents)}</td></tr>`,
    )
    .join("");
  const garantiaCents = data.garantiaCents ?? 0;
  const creditCents = data.garantiaCreditCents ?? 0;
  const garantiaLabel = `Garantía de bidón (${data.garantiaUnits ?? 1} ${(data.garantiaUnits ?? 1) === 1 ? "bidón" : "bidones"})`;
  const extraRows = [
    ...(garantiaCents > 0 ? [[garantiaLabel, formatSoles(garantiaCents)]] : []),
    ...(creditCents > 0 ? [["Crédito de tu garantía", `- ${formatSoles(creditCents)}`]] : []),
  ];
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">¡Gracias por tu compra, ${escapeHtml(data.firstName)}!</h1>
${
  data.payAtDoor
    ? `<p>Tu pedido <strong>${escapeHtml(data.orderNumber)}</strong> está confirmado. <strong>${escapeHtml(data.payAtDoor)}.</strong> Te enviaremos tu comprobante cuando pagues.</p>`
    : `<p>Recibimos el pago de tu pedido <strong>${escapeHtml(data.orderNumber)}</strong>. Tu comprobante es el <strong>${escapeHtml(data.invoiceNumber ?? "")}</strong>.</p>`
}
${
  data.plan
    ? `<p><strong>${escapeHtml(data.plan)}</strong></p>
`
    : ""
}<table role="presentation" width="100%" style="border-top:1px solid #e2e8f0;border-bottom:1px solid #e2e8f0;margin:16px 0">${rows}
${extraRows.map(([label, amount]) => `<tr><td style="padding:6px 0">${escapeHtml(label!)}</td><td align="right">${amount}</td></tr>`).join("")}
<tr><td style="padding:8px 0;font-weight:bold">Total</td><td align="right" style="font-weight:bold">${formatSoles(data.totalCents)}</td></tr></table>
<p><strong>Entrega:</strong> ${escapeHtml(delivery)}<br>${escapeHtml(data.address)}, ${escapeHtml(data.districtName)}</p>
<p style="margin:24px 0">${button(data.receiptUrl, "Ver mi pedido")}${data.reorderUrl ? ` ${button(data.reorderUrl, "Repetir pedido")}` : ""}</p>${
      data.attachUrl
        ? `
<p>Este correo tiene una cuenta en ${escapeHtml(data.brandName)}. Hiciste este pedido sin iniciar sesión: si la cuenta es tuya, puedes guardarlo en "Mis pedidos".</p>
<p style="margin:16px 0">${button(data.attachUrl, "Agregar este pedido a mi cuenta")}</p>`
        : ""
    }`,
  });
  const text = [
    `¡Gracias por tu compra, ${data.firstName}!`,
    data.payAtDoor
      ? `Pedido ${data.orderNumber} confirmado. ${data.payAtDoor}. Te enviaremos tu comprobante cuando pagues.`
      : `Pedido ${data.orderNumber} pagado. Comprobante ${data.invoiceNumber}.`,
    ...(data.plan ? [data.plan] : []),
    ...data.items.map((item) => `${item.quantity} x ${item.title}${item.variantTitle ? ` (${item.variantTitle})` : ""}: ${formatSoles(item.lineTotalCents)}`),
    ...extraRows.map(([label, amount]) => `${label}: ${amount}`),
    `Total: ${formatSoles(data.totalCents)}`,
    `Entrega: ${delivery}, ${data.address}, ${data.districtName}`,
    `Ver tu pedido: ${data.receiptUrl}`,
    ...(data.reorderUrl ? [`Repetir este pedido: ${data.reorderUrl}`] : []),
    ...(data.attachUrl ? [`Agregar este pedido a mi cuenta: ${data.attachUrl}`] : []),
  ].join("\n");
  return { subject, html, text };
}
