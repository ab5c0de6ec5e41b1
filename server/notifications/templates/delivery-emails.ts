import { button, emailLayout, escapeHtml } from "./layout";

interface DeliveryEmailBase {
  brandName: string;
  firstName: string;
  orderNumber: string;
  deliveryNumber: string;
  /** The order's page (`/orden/{id}` with its signed token), reachable without signing in. */
  orderUrl: string;
}

function deliveryEmail(
  data: DeliveryEmailBase & { reorderUrl?: string },
  subject: string,
  paragraphs: string[],
  action = { url: data.orderUrl, label: "Ver mi pedido", text: "Ver tu pedido" },
) {
  const reorder = data.reorderUrl ? ` ${button(data.reorderUrl, "Repetir pedido")}` : "";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
<p style="margin:24px 0">${button(action.url, action.label)}${reorder}</p>`,
  });
  const text = [
    `Hola, ${data.firstName}`,
    ...paragraphs,
    `${action.text}: ${action.url}`,
    ...(data.reorderUrl ? [`Repetir este pedido: ${data.reorderUrl}`] : []),
  ].join("\n");
  return { subject, html, text };
}

/** Issue 10: once per delivery, when the driver marks it "en camino". */
export function deliveryOnTheWayEmail(data: DeliveryEmailBase & { windowLabel: string }) {
  return deliveryEmail(data, "Tu pedido está en camino", [
    `Tu envío ${data.deliveryNumber} del pedido ${data.orderNumber} salió a reparto y llegará hoy en el horario ${data.windowLabel}.`,
    "Ten a mano tus bidones vacíos para devolverlos al repartidor.",
  ]);
}

/** Issue 10: once per delivery, when the driver confirms it; says how the bidones stand. */
export function deliveryDeliveredEmail(
  data: DeliveryEmailBase & { receiverName: string; fullLeft: number; emptiesCollected: number; bidonBalance: number; reorderUrl?: string },
) {
  const bidones =
    data.fullLeft === 0 && data.emptiesCollected === 0
      ? "Esta entrega no movió bidones retornables."
      : `Dejamos ${data.fullLeft} ${data.fullLeft === 1 ? "bidón lleno" : "bidones llenos"} y recogimos ${data.emptiesCollected} ${data.emptiesCollected === 1 ? "vacío" : "vacíos"}.`;
  return deliveryEmail(data, "Tu pedido fue entregado", [
    `Entregamos tu envío ${data.deliveryNumber} del pedido ${data.orderNumber}. Lo recibió ${data.receiverName}.`,
    bidones,
    `Bidones nuestros en tu poder: ${data.bidonBalance}.`,
  ]);
}

/**
 * Issue 10: the driver could not deliver. Issue 25: the customer picks the new date at the link
 * (`/orden/{id}/nueva-fecha`); otherwise operaciones set one, and that e-mail tells it.
 */
export function deliveryFailedEmail(data: DeliveryEmailBase & { reasonLabel: string; newDateUrl: string }) {
  return deliveryEmail(
    data,
    "No pudimos entregar tu pedido",
    [
      `Hoy no pudimos entregar tu envío ${data.deliveryNumber} del pedido ${data.orderNumber} (motivo: ${data.reasonLabel}).`,
      "Elige una nueva fecha de entrega con el botón de abajo. Si prefieres, nuestro equipo te contactará para coordinarla; te avisaremos por correo cuando esté programada.",
    ],
    { url: data.newDateUrl, label: "Elegir nueva fecha", text: "Elige una nueva fecha" },
  );
}
