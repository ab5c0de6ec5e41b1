/**
 * WhatsApp rules both sides share (issue 25; decision 0074): the number format the Cloud API
 * takes, the opt-in box's wording, and how an inbound "baja" is recognised.
 */
import { normalizePeruvianMobile } from "./documents";

/**
 * A Peruvian mobile as the Cloud API wants it: E.164 without the "+" (`51` + 9 digits starting
 * with 9), from however it was typed ("987 654 321", "+51 987-654-321", "51987654321"). Null for
 * anything else: a landline, a foreign number, a short or long one.
 */
export function whatsappNumber(typed: string | null | undefined): string | null {
  if (!typed) return null;
  const local = normalizePeruvianMobile(typed.trim().replace(/^00(?=51)/, "+"));
  return /^9\d{8}$/.test(local) ? `51${local}` : null;
}

/** "51987654321" → "+51 987 654 321", the way staff read it. */
export function formatWhatsappNumber(number: string): string {
  const match = /^51(\d{3})(\d{3})(\d{3})$/.exec(number);
  return match ? `+51 ${match[1]} ${match[2]} ${match[3]}` : number;
}

/** The box at checkout, sign-up and in the profile: never ticked by default, separate from promotions. */
export const WHATSAPP_OPT_IN_LABEL = "Quiero recibir avisos de mis pedidos por WhatsApp";

/** Shown under the box, and stored with each opt-in as part of the text the customer saw. */
export function whatsappOptInNote(brandName: string): string {
  return `${brandName} te escribirá por WhatsApp solo sobre tus pedidos, entregas, pagos y tu suscripción, y, si aceptas recibir promociones, para recordarte cuándo se te estaría acabando el agua. Para dejar de recibirlos, responde BAJA.`;
}

/** Bump when the label or the note changes; each stored opt-in keeps its version and its text. */
export const WHATSAPP_OPT_IN_TEXT_VERSION = "avisos-whatsapp-2026-11";

/**
 * The opt-in texts that name the reorder reminder (decision 0076): a number opted in under an
 * earlier text was promised order messages only, so its reminders keep going by e-mail.
 */
export const WHATSAPP_REMINDER_TEXT_VERSIONS: readonly string[] = ["avisos-whatsapp-2026-11"];

/** The whole text one opt-in is recorded with (label and note as shown). */
export function whatsappOptInText(brandName: string): string {
  return `${WHATSAPP_OPT_IN_LABEL}. ${whatsappOptInNote(brandName)}`;
}

/** Replies that end WhatsApp for the number at once (issue 25): compared without case, accents or punctuation. */
export const WHATSAPP_OPT_OUT_WORDS = ["BAJA", "STOP", "NO"] as const;

export function isWhatsappOptOut(body: string | null | undefined): boolean {
  return (WHATSAPP_OPT_OUT_WORDS as readonly string[]).includes(replyWord(body));
}

/**
 * Replies that say yes to the shop's question "Responde SÍ para recibir avisos de tu pedido"
 * (issue 39): typed, or the template's quick-reply button. Only an answer to a question the shop
 * asked that number counts; the same word otherwise is a message for staff.
 */
export const WHATSAPP_OPT_IN_WORDS = ["SI", "SI QUIERO AVISOS", "SI QUIERO", "ALTA", "ACEPTO"] as const;

export function isWhatsappOptInAnswer(body: string | null | undefined): boolean {
  return (WHATSAPP_OPT_IN_WORDS as readonly string[]).includes(replyWord(body));
}

/** A reply as the shop compares it: no accents, case or punctuation, single spaces (issue 25). */
export function replyWord(body: string | null | undefined): string {
  if (!body) return "";
  return body
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();
}

/*
 * Staff's free-text replies in Mensajes (issue 38): what the page and the server say alike.
 */
/** Meta's limit for a text message's body. */
export const STAFF_REPLY_MAX = 4096;

export const WINDOW_CLOSED_MESSAGE =
  "Pasaron más de 24 horas desde su último mensaje: WhatsApp solo permite plantillas aprobadas. Llámale o escríbele por correo; cuando vuelva a escribir, podrás responderle aquí.";
export const OPTED_OUT_MESSAGE = "Este número pidió la baja (BAJA) y no volvió a escribir: no se le envía nada por WhatsApp.";

/** What staff read for a message's state (/admin/pedidos/{id}). */
export const WHATSAPP_STATUS_LABELS: Record<string, string> = {
  pending: "En cola",
  sending: "Enviando",
  accepted: "Enviado",
  sent: "Enviado",
  delivered: "Entregado",
  read: "Leído",
  failed: "Fallido",
  dead: "Fallido",
  withheld: "No enviado",
};

export function whatsappStatusLabel(status: string): string {
  return WHATSAPP_STATUS_LABELS[status] ?? status;
}

/** Meta's error codes as staff read them (../shared/reference/whatsapp-cloud-api.md). */
const ERROR_REASONS: Record<number, string> = {
  190: "El token de acceso de WhatsApp venció o no es válido",
  100: "Parámetro rechazado por WhatsApp",
  131026: "El número no está en WhatsApp o no puede recibir mensajes",
  131047: "Fuera de la ventana de 24 horas",
  131051: "Tipo de mensaje no admitido",
  132000: "La cantidad de parámetros no coincide con la plantilla aprobada",
  132001: "La plantilla no existe o no está aprobada en ese idioma",
  132005: "El texto de la plantilla con sus parámetros es demasiado largo",
  132007: "La plantilla infringe las políticas de WhatsApp",
  132012: "Un parámetro no tiene el formato de la plantilla",
  132015: "La plantilla está pausada por baja calidad",
  132016: "La plantilla fue desactivada",
  132018: "Un parámetro tiene saltos de línea o demasiados espacios",
  130429: "Límite de envíos alcanzado",
  131056: "Demasiados mensajes al mismo número",
};

/** Why a message failed, in Spanish, from Meta's code and its own text. */
export function whatsappFailureReason(code: number | null, lastError: string | null): string {
  const known = code !== null ? ERROR_REASONS[code] : undefined;
  if (known) return `${known} (${code})`;
  if (code !== null && code >= 132000 && code < 133000) return `Problema con la plantilla (${code})${lastError ? `: ${lastError}` : ""}`;
  return lastError ?? (code !== null ? `Error ${code}` : "Motivo desconocido");
}

/** Template errors (132xxx): the approved template and what the shop sends disagree; an admin must act. */
export function isTemplateError(code: number | null): boolean {
  return code !== null && code >= 132000 && code < 133000;
}
