import { formatSoles } from "@core/money";
import { emailLayout, escapeHtml } from "./layout";

/** Decision 0075: a returned garantía the customer chose to keep as credit for their next order. */
export function garantiaCreditEmail(data: { brandName: string; firstName: string; units: number; amountCents: number }) {
  const bidones = `${data.units} ${data.units === 1 ? "bidón" : "bidones"}`;
  const subject = `Tu garantía de ${formatSoles(data.amountCents)} quedó como crédito`;
  const paragraphs = [
    `Recibimos ${bidones} de vuelta, así que te devolvemos su garantía: ${formatSoles(data.amountCents)}.`,
    "Como lo elegiste en tu cuenta, la guardamos como crédito: se descontará sola de tu próximo pedido con compra única cuando inicies sesión para comprar.",
    "Si prefieres que te la devolvamos al medio de pago, cámbialo en Mis envíos, en tu cuenta.",
  ];
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(data.firstName)}</h1>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}`,
  });
  return { subject, html, text: [`Hola, ${data.firstName}`, ...paragraphs].join("\n") };
}
