import { formatSoles } from "@core/money";
import { button, emailLayout } from "./layout";

export function abandonedCartEmail(data: { brandName: string; resumeUrl: string; subtotalCents: number }) {
  const subject = "Tu carrito te está esperando";
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">¿Te quedaste con sed?</h1>
<p>Dejaste productos por ${formatSoles(data.subtotalCents)} en tu carrito. Los guardamos para ti: retoma tu pedido cuando quieras.</p>
<p style="margin:24px 0">${button(data.resumeUrl, "Retomar mi pedido")}</p>
<p style="font-size:12px;color:#64748b">El enlace vence en 7 días. Si ya hiciste tu pedido, ignora este correo.</p>`,
  });
  const text = `Dejaste productos por ${formatSoles(data.subtotalCents)} en tu carrito.\nRetoma tu pedido: ${data.resumeUrl}\nEl enlace vence en 7 días.`;
  return { subject, html, text };
}
