import { formatLimaDate } from "@core/lima-dates";
import { button, escapeHtml } from "./layout";
import { promotionalEmail, type PromotionalSender } from "./promotional";

/**
 * "¿Te queda agua?" (decision 0076): a promotion, so it goes only with consent, is checked again
 * when it leaves, and carries PUBLICIDAD, the issuer and the one-click unsubscribe.
 */
export function reorderReminderEmail(data: {
  sender: PromotionalSender;
  firstName: string;
  runsOutOn: string;
  intervalDays: number;
  items: { title: string; variantTitle: string | null; quantity: number }[];
  reorderUrl: string;
  unsubscribeUrl: string;
}) {
  const lines = data.items.map((item) => `${item.quantity} × ${item.title}${item.variantTitle ? ` (${item.variantTitle})` : ""}`);
  const pace = `Sueles pedir cada ${data.intervalDays} días: tu agua se acabaría hacia el ${formatLimaDate(data.runsOutOn)}.`;
  return promotionalEmail({
    sender: data.sender,
    unsubscribeUrl: data.unsubscribeUrl,
    subject: "¿Te queda agua?",
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">¿Te queda agua, ${escapeHtml(data.firstName)}?</h1>
<p>${escapeHtml(pace)}</p>
<p>Repite tu último pedido con un toque, a los precios de hoy:</p>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p style="margin:24px 0">${button(data.reorderUrl, "Repetir mi pedido")}</p>
<p style="font-size:12px;color:#64748b">Si ya tienes agua de sobra, ignora este correo: no te escribiremos otra vez hasta tu próximo pedido.</p>`,
    text: [`¿Te queda agua, ${data.firstName}?`, pace, "Repite tu último pedido:", ...lines, data.reorderUrl].join("\n"),
  });
}
