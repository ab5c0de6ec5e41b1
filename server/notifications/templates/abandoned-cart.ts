import { formatSoles } from "@core/money";
import { button } from "./layout";
import { promotionalEmail, type PromotionalSender } from "./promotional";

/** A promotion (issue 12): sent only with consent, with PUBLICIDAD and a one-click unsubscribe. */
export function abandonedCartEmail(data: { sender: PromotionalSender; resumeUrl: string; unsubscribeUrl: string; subtotalCents: number }) {
  return promotionalEmail({
    sender: data.sender,
    unsubscribeUrl: data.unsubscribeUrl,
    subject: "Tu carrito te está esperando",
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">¿Te quedaste con sed?</h1>
<p>Dejaste productos por ${formatSoles(data.subtotalCents)} en tu carrito. Los guardamos para ti: retoma tu pedido cuando quieras.</p>
<p style="margin:24px 0">${button(data.resumeUrl, "Retomar mi pedido")}</p>
<p style="font-size:12px;color:#64748b">El enlace vence en 7 días. Si ya hiciste tu pedido, ignora este correo.</p>`,
    text: `Dejaste productos por ${formatSoles(data.subtotalCents)} en tu carrito.\nRetoma tu pedido: ${data.resumeUrl}\nEl enlace vence en 7 días.`,
  });
}
