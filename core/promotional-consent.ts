/**
 * Promotional e-mail consent (issue 12; Ley 29733 and D.S. 016-2024-JUS, Código art. 58.1(e)):
 * a separate, unticked choice, never a condition of buying or of an account. The wording is
 * versioned so each stored consent says which text the customer saw.
 */
import { z } from "./zod";

/** Bump when the checkbox text or the note under it changes; older events keep their version. */
export const PROMOTIONAL_CONSENT_TEXT_VERSION = "promociones-correo-2026-11";

export const CONSENT_SOURCES = ["checkout", "signup", "preferences", "unsubscribe"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/** The checkbox label, with the brand from site settings. */
export function promotionalConsentLabel(brandName: string): string {
  return `Quiero recibir promociones y novedades de ${brandName} por correo`;
}

/** A checkbox posted as a form field ("on") or as JSON (true); anything else is "no". */
export const consentCheckbox = z.preprocess((value) => value === true || value === "on" || value === "true", z.boolean());
