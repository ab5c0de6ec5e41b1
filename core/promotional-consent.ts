/**
 * Promotional e-mail consent (issue 12; Ley 29733 and D.S. 016-2024-JUS, Código art. 58.1(e)):
 * a separate, unticked choice, never a condition of buying or of an account. The wording is
 * versioned so each stored consent says which text the customer saw.
 */
import { z } from "./zod";

/** Bump when the checkbox text or the note under it changes; older events keep their version. */
export const PROMOTIONAL_CONSENT_TEXT_VERSION = "promociones-correo-2026-12";

/**
 * Where a choice was asked for (the form the person used). `telefono`: the customer said so on the
 * phone and the office ticked the box on "Nuevo pedido" (decision 0091); it asks like any box.
 */
export const CONSENT_SOURCES = ["checkout", "signup", "preferences", "unsubscribe", "telefono"] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/**
 * How a choice was made (issue 24, decision 0072): a consent only by the button of the page the
 * confirmation e-mail's link opens (double opt-in); a revocation by RFC 8058's one-click POST or a
 * button of /preferencias-de-correo.
 */
export const CONSENT_METHODS = ["email-confirmation", "one-click", "preferences-button"] as const;
export type ConsentMethod = (typeof CONSENT_METHODS)[number];

/** Who is responsible for the data, as the note under the box names them (site settings' issuer). */
export interface ConsentResponsible {
  legalName: string;
  ruc: string;
  fiscalAddress: string;
}

/**
 * The note under the box, in pieces so the page can make two of them links; joined, it is the text
 * each consent stores as shown (`promotionalConsentText`).
 */
export function promotionalConsentNote(responsible: ConsentResponsible | null) {
  return {
    lead:
      "Opcional: no es necesario para comprar ni para crear tu cuenta. Te enviaremos un correo para que lo confirmes: sin esa confirmación no te enviaremos promociones." +
      (responsible ? ` Responsable: ${responsible.legalName} (RUC ${responsible.ruc}), ${responsible.fiscalAddress}.` : "") +
      " Usaremos tu correo solo para enviarte ofertas y novedades, a través de nuestro proveedor de envío de correos, hasta que retires tu consentimiento: puedes hacerlo gratis y al instante desde cualquier correo promocional o en ",
    preferencesLink: "Preferencias de correo",
    middle: ". Tus derechos de acceso, rectificación, cancelación y oposición, en la ",
    privacyLink: "Política de privacidad",
    end: ".",
  };
}

/** The exact text a person agrees to: the box's label and the note under it. */
export function promotionalConsentText(brandName: string, responsible: ConsentResponsible | null): string {
  const note = promotionalConsentNote(responsible);
  return `${promotionalConsentLabel(brandName)}. ${note.lead}${note.preferencesLink}${note.middle}${note.privacyLink}${note.end}`;
}

/** The checkbox label, with the brand from site settings. */
export function promotionalConsentLabel(brandName: string): string {
  return `Quiero recibir promociones y novedades de ${brandName} por correo`;
}

/** A checkbox posted as a form field ("on") or as JSON (true); anything else is "no". */
export const consentCheckbox = z.preprocess((value) => value === true || value === "on" || value === "true", z.boolean());
