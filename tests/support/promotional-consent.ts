/**
 * Consent as the shop records it since issue 24 (double opt-in, decision 0072), for tests that need
 * an address that consented: asked (as a ticked box does) and confirmed from its link, through the
 * consent domain's own functions — never a row written by hand.
 */
import type { ConsentSource } from "@core/promotional-consent";
import { confirmPromotionalConsent, requestPromotionalConsent, revokePromotionalConsent, type ConsentEvidence } from "@server/consent/index.server";
import type { Database } from "@server/db/client";

export async function confirmedConsent(db: Database, email: string, now: Date, options: { source?: ConsentSource } & ConsentEvidence = {}): Promise<void> {
  const { source = "checkout", ...evidence } = options;
  const asked = await requestPromotionalConsent(db, { email, source, consentText: "Quiero recibir promociones (texto de prueba)", ...evidence }, now);
  if (!asked) throw new Error(`${email} was not asked (already consenting, or asked within the day)`);
  const confirmed = await confirmPromotionalConsent(db, { token: asked.token, ...evidence }, now);
  if (!confirmed.ok) throw new Error(`consent of ${email} not confirmed: ${confirmed.reason}`);
}

export async function revokedConsent(db: Database, email: string, now: Date, evidence: ConsentEvidence = {}): Promise<boolean> {
  return revokePromotionalConsent(db, { email, source: "unsubscribe", method: "one-click", buttonText: "Dejar de recibir promociones", ...evidence }, now);
}
