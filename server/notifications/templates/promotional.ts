import { button, emailLayout, escapeHtml } from "./layout";

/**
 * Issue 12 (Código art. 58.1(e), Ley 29733): the kinds of e-mail that promote rather than report.
 * Only these need consent; they are checked again at sending time and carry PUBLICIDAD, the
 * issuer and a one-click unsubscribe. Transactional mail (orders, deliveries, accounts) is never here.
 */
export const PROMOTIONAL_EMAIL_KINDS: ReadonlySet<string> = new Set(["abandoned-cart", "reorder-reminder"]);

export const isPromotionalEmailKind = (kind: string) => PROMOTIONAL_EMAIL_KINDS.has(kind);

export const PROMOTIONAL_SUBJECT_PREFIX = "PUBLICIDAD: ";

/** Who sends a promotion, as the law asks it be named (getIssuer from the content domain). */
export interface PromotionalSender {
  brandName: string;
  legalName: string;
  ruc: string;
  fiscalAddress: string;
}

/** Wraps a promotion's content in what every promotion must carry. */
export function promotionalEmail(data: { sender: PromotionalSender; unsubscribeUrl: string; subject: string; body: string; text: string }) {
  const { sender } = data;
  const subject = `${PROMOTIONAL_SUBJECT_PREFIX}${data.subject}`;
  const issuerLine = `${sender.legalName} · RUC ${sender.ruc} · ${sender.fiscalAddress}`;
  const html = emailLayout({
    brandName: sender.brandName,
    title: subject,
    body: `${data.body}
<hr style="border:none;border-top:1px solid #e2e8f0;margin:28px 0 16px">
<p style="font-size:12px;color:#475569;margin:0 0 8px">Recibes este correo porque aceptaste recibir promociones y novedades de ${escapeHtml(sender.brandName)}. Puedes dejar de recibirlas con un clic, sin iniciar sesión:</p>
<p style="margin:0 0 8px">${button(data.unsubscribeUrl, "Dejar de recibir promociones")}</p>
<p style="font-size:12px;color:#475569;margin:0">${escapeHtml(issuerLine)}</p>`,
  });
  const text = `${data.text}\n\n--\nRecibes este correo porque aceptaste recibir promociones y novedades de ${sender.brandName}.\nDejar de recibir promociones (un clic, sin iniciar sesión): ${data.unsubscribeUrl}\n${issuerLine}`;
  return { subject, html, text };
}
