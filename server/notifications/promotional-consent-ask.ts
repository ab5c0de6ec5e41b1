import { createHash } from "node:crypto";
import { promotionalConsentText, type ConsentSource } from "@core/promotional-consent";
import { promotionalConsentConfirmUrl, requestPromotionalConsent, CONSENT_REQUEST_DAYS, type ConsentEvidence } from "../consent/index.server";
import type { DatabaseOrTransaction } from "../db/transaction";
import { enqueueEmail } from "./outbox";
import type { PromotionalSender } from "./templates/promotional";
import { button, emailLayout, escapeHtml } from "./templates/layout";

/**
 * Issue 24 (decision 0072, double opt-in): a ticked promotional box asks the consent domain for a
 * confirmation link and e-mails it to the address, in the caller's transaction (a checkout's
 * consent is asked with its order). The e-mail is transactional: it promotes nothing and only asks.
 * Returns whether an e-mail was queued (none when the address already consents, or was asked
 * less than a day ago).
 */
export async function askForPromotionalConsent(
  db: DatabaseOrTransaction,
  ask: { email: string; source: ConsentSource } & ConsentEvidence,
  sender: PromotionalSender,
  now: Date,
): Promise<boolean> {
  const consentText = promotionalConsentText(sender.brandName, sender);
  const requested = await requestPromotionalConsent(db, { ...ask, consentText }, now);
  if (!requested) return false;
  const confirmUrl = promotionalConsentConfirmUrl(requested.token);
  const email = promotionalConsentConfirmationEmail({ brandName: sender.brandName, confirmUrl, consentText });
  await enqueueEmail(
    db,
    {
      dedupeKey: `promotional-consent:${createHash("sha256").update(requested.token).digest("hex").slice(0, 32)}`,
      kind: "promotional_consent_confirmation",
      to: ask.email.trim().toLowerCase(),
      ...email,
    },
    now,
  );
  return true;
}

export function promotionalConsentConfirmationEmail(data: { brandName: string; confirmUrl: string; consentText: string }) {
  const subject = `Confirma si quieres recibir promociones de ${data.brandName}`;
  const html = emailLayout({
    brandName: data.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">¿Quieres recibir nuestras promociones?</h1>
<p>Alguien marcó, con este correo, la casilla para recibir promociones y novedades de ${escapeHtml(data.brandName)}. Solo te las enviaremos si lo confirmas:</p>
<p style="margin:24px 0">${button(data.confirmUrl, "Sí, quiero recibir promociones")}</p>
<p style="font-size:12px;color:#64748b">El enlace abre una página donde lo confirmas; vence en ${CONSENT_REQUEST_DAYS} días. Si no fuiste tú, ignora este correo: no recibirás promociones.</p>
<p style="font-size:12px;color:#64748b">Lo que aceptas: ${escapeHtml(data.consentText)}</p>`,
  });
  const text = `Alguien marcó, con este correo, la casilla para recibir promociones y novedades de ${data.brandName}. Solo te las enviaremos si lo confirmas en la página de este enlace (vence en ${CONSENT_REQUEST_DAYS} días):\n${data.confirmUrl}\nSi no fuiste tú, ignora este correo: no recibirás promociones.\n\nLo que aceptas: ${data.consentText}`;
  return { subject, html, text };
}
