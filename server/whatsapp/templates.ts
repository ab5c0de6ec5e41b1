import { REPEAT_QUICK_REPLY } from "@core/whatsapp-repeat";
import type { WhatsappTemplateParameters } from "../db/schema";

/**
 * The message templates the shop submits to Meta (issue 25; docs/whatsapp.md lists them with the
 * same text, and a unit test keeps the two equal). Every message the shop starts is one of these:
 * outside the customer's 24-hour window WhatsApp accepts nothing else. All but one are category UTILITY
 * (order, delivery and payment updates the customer asked for), in Spanish (`es`).
 *
 * A template's text is fixed once approved; only the `{{n}}` parameters change, and each must be
 * one line (Meta refuses new lines, tabs and more than four spaces in a row: error 132018). The
 * URL button's base is the shop's public origin (`SITE_URL`) with a `{{1}}` suffix, so one
 * approved button opens each order's own page.
 */
export interface WhatsappTemplate {
  name: string;
  /** What staff and the docs call it. */
  title: string;
  /** UTILITY for what the customer's order or subscription needs; MARKETING for the reorder reminder. */
  category: "UTILITY" | "MARKETING";
  language: "es";
  body: string;
  /** One per `{{n}}`, in order: what it holds (for docs) and a Spanish example for Meta's review. */
  parameters: readonly { meaning: string; example: string }[];
  /** A URL button `{SITE_URL}/{{1}}`: its text and an example suffix. */
  button: { text: string; meaning: string; example: string } | null;
  /**
   * Quick-reply buttons (fixed texts; the customer's tap comes back as a `button` message with that
   * text). They need nothing in the request: the approved template carries them, after the URL button.
   */
  quickReplies?: readonly string[];
  /** When the shop sends it. */
  sentWhen: string;
}

export const WHATSAPP_TEMPLATES = {
  optInAsk: {
    name: "confirmar_avisos",
    title: "Confirmar avisos",
    category: "UTILITY",
    language: "es",
    body: "Hola, en {{1}} nos pidieron avisos por WhatsApp para este número ({{2}}). Responde SÍ para recibir avisos de tu pedido. Si no fuiste tú, ignora este mensaje: no te escribiremos más.",
    parameters: [
      { meaning: "the shop's name", example: "Vida Alcalina" },
      { meaning: "where it was asked: the order number, or the account", example: "pedido VA-001015" },
    ],
    button: null,
    quickReplies: ["Sí, quiero avisos"],
    sentWhen:
      "once, when a checkout, a sign-up or a profile ticks the WhatsApp box for a number not yet proven for that person (issue 39); nothing else is sent to the number until it answers",
  },
  orderConfirmed: {
    name: "pedido_confirmado",
    title: "Pedido confirmado",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, confirmamos tu pedido {{2}} por {{3}}. Entrega: {{4}}. Te avisaremos por aquí cuando salga a reparto.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "order number", example: "VA-001015" },
      { meaning: "total paid", example: "S/ 59.90" },
      { meaning: "delivery date and window", example: "jueves 14 de mayo, Mañana (9am - 12pm)" },
    ],
    button: { text: "Ver mi pedido", meaning: "the order's page", example: "orden/3f1c…?token=…" },
    sentWhen: "when the order's payment is confirmed (beside the confirmation e-mail)",
  },
  onTheWay: {
    name: "pedido_en_camino",
    title: "En camino",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu pedido {{2}} salió a reparto y llega hoy en el horario {{3}}. {{4}}. Ten a mano tus bidones vacíos para devolverlos.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "order number", example: "VA-001015" },
      { meaning: "delivery window", example: "Mañana (9am - 12pm)" },
      { meaning: "stops before theirs", example: "Faltan 3 paradas antes de la tuya" },
    ],
    button: { text: "Ver mi pedido", meaning: "the order's page", example: "orden/3f1c…?token=…" },
    sentWhen: "when the driver marks the stop «En camino» and the route knows no arrival time",
  },
  onTheWayWithArrival: {
    name: "pedido_en_camino_hora",
    title: "En camino (con hora de llegada)",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu pedido {{2}} salió a reparto y llega hoy entre las {{3}} y las {{4}}. {{5}}. Ten a mano tus bidones vacíos para devolverlos.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "order number", example: "VA-001015" },
      { meaning: "earliest estimated arrival", example: "10:30" },
      { meaning: "latest estimated arrival", example: "11:30" },
      { meaning: "stops before theirs", example: "Falta 1 parada antes de la tuya" },
    ],
    button: { text: "Ver mi pedido", meaning: "the order's page", example: "orden/3f1c…?token=…" },
    sentWhen: "when the driver marks the stop «En camino» and the route knows the arrival window",
  },
  delivered: {
    name: "pedido_entregado",
    title: "Entregado",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, entregamos tu pedido {{2}}; lo recibió {{3}}. Bidones llenos dejados: {{4}}. Vacíos recogidos: {{5}}. Bidones nuestros en tu poder: {{6}}. ¡Gracias por tu compra!",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "order number", example: "VA-001015" },
      { meaning: "who received it", example: "Juan Pérez" },
      { meaning: "full bidones left", example: "2" },
      { meaning: "empty bidones collected", example: "2" },
      { meaning: "the shop's bidones they now hold", example: "3" },
    ],
    button: {
      text: "Repetir pedido",
      meaning: "one-tap reorder: the same products in the cart (signed link, 30 days)",
      example: "repetir-pedido/3f1c…?token=…",
    },
    sentWhen: "when the driver marks the stop «Entregado»",
  },
  late: {
    name: "pedido_retrasado",
    title: "Pedido con retraso",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu pedido {{2}} no llegará en el horario que elegiste ({{3}}): {{4}}. {{5}}. Disculpa la demora.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "order number", example: "VA-001015" },
      { meaning: "delivery window promised at checkout", example: "Mañana (9am - 12pm)" },
      { meaning: "why, in plain Spanish", example: "el repartidor va retrasado en su ruta" },
      { meaning: "the new estimated arrival", example: "Nueva llegada estimada: entre las 12:30 y las 13:10" },
    ],
    button: { text: "Ver mi pedido", meaning: "the order's page", example: "orden/3f1c…?token=…" },
    sentWhen:
      "once per delivery and day, when the route's arrival estimate says the slot promised at checkout will be missed and gives the new window (issue 40; the «lateDeliveries» job)",
  },
  notDelivered: {
    name: "pedido_no_entregado",
    title: "No se pudo entregar",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, hoy no pudimos entregar tu pedido {{2}} (motivo: {{3}}). Elige una nueva fecha de entrega con el botón, o respóndenos por aquí.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "order number", example: "VA-001015" },
      { meaning: "reason", example: "Cliente ausente" },
    ],
    button: { text: "Elegir nueva fecha", meaning: "the page where the customer picks the new date", example: "orden/3f1c…/nueva-fecha?token=…" },
    sentWhen: "when the driver marks the stop «No se pudo entregar»",
  },
  paymentCode: {
    name: "codigo_de_pago",
    title: "Código de pago",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu código de pago para el pedido {{2}} es {{3}}. Paga {{4}} con {{5}} hasta el {{6}}; después el código vence.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "order number", example: "VA-001015" },
      { meaning: "payment code", example: "81234567" },
      { meaning: "amount", example: "S/ 59.90" },
      { meaning: "how to pay", example: "Yape o en efectivo en agentes y bodegas" },
      { meaning: "deadline (Lima time)", example: "14 may. 2026, 18:30" },
    ],
    button: { text: "Ver mi pedido", meaning: "the order's page", example: "orden/3f1c…?token=…" },
    sentWhen: "when a cash/Yape payment code is issued",
  },
  paymentLink: {
    name: "link_de_pago",
    title: "Tu link de pago",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, registramos tu pedido {{2}} por {{3}}. Págalo con el botón (tarjeta, Yape o código de pago) hasta el {{4}}; después el pedido se anula.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "order number", example: "VA-001015" },
      { meaning: "amount", example: "S/ 59.90" },
      { meaning: "deadline (Lima time)", example: "14 may. 2026, 10:30" },
    ],
    button: { text: "Pagar mi pedido", meaning: "the order's payment page", example: "pago/culqi/3f1c…" },
    sentWhen: "when the office types in an order by phone and sends its payment link (issue 38), beside the e-mail",
  },
  renewalSoon: {
    name: "renovacion_en_2_dias",
    title: "Renovación en 2 días",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu suscripción {{2}} se renueva el {{3}} y cobraremos {{4}}. Si quieres saltar la entrega, cambiar la fecha o pausarla, hazlo antes desde tu cuenta.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "subscription number", example: "SUS-000042" },
      { meaning: "charge date", example: "jueves 14 de mayo" },
      { meaning: "amount", example: "S/ 113.05" },
    ],
    button: { text: "Ver mi suscripción", meaning: "the subscription in the customer's account", example: "dashboard/suscripciones/3f1c…" },
    sentWhen: "two days before each renewal (the reminder e-mail goes three days before)",
  },
  renewalFailed: {
    name: "cobro_fallido",
    title: "Cobro fallido",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, no pudimos cobrar {{2}} de tu suscripción {{3}}. {{4}} Paga o actualiza tu tarjeta con el botón.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "amount", example: "S/ 113.05" },
      { meaning: "subscription number", example: "SUS-000042" },
      { meaning: "what happens next", example: "Lo intentaremos de nuevo el jueves 14 de mayo." },
    ],
    button: {
      text: "Pagar ahora",
      meaning: "the subscription's card page, which charges an unpaid period at once",
      example: "suscripcion/tarjeta/3f1c…?modo=actualizar",
    },
    sentWhen: "when a renewal charge is declined (beside the e-mail), also on the last attempt",
  },
  reorderReminder: {
    name: "recordatorio_agua",
    title: "¿Te queda agua?",
    category: "MARKETING",
    language: "es",
    body: "Hola {{1}}, por cómo sueles pedir, tu agua se estaría acabando hacia el {{2}}. Si quieres, repite tu último pedido ({{3}}) con el botón. Para no recibir más mensajes por WhatsApp, responde BAJA.",
    parameters: [
      { meaning: "customer's first name", example: "María" },
      { meaning: "the day they usually run out", example: "jueves 14 de mayo" },
      { meaning: "what the last order held", example: "2 × Bidón 20 L" },
    ],
    button: {
      text: "Repetir pedido",
      meaning: "one-tap reorder of the last order (signed link, 14 days)",
      example: "repetir-pedido/3f1c…?token=…",
    },
    // Issue 38: the second button, after the URL one (which keeps index 0): its tap comes back as a
    // `button` message with this text, answered like a typed «lo de siempre».
    quickReplies: [REPEAT_QUICK_REPLY],
    sentWhen:
      "a day or two before a one-time buyer usually runs out (decision 0076), instead of the e-mail, when they accepted promotions and their WhatsApp opt-in names the reminder",
  },
} as const satisfies Record<string, WhatsappTemplate>;

export type WhatsappTemplateKey = keyof typeof WHATSAPP_TEMPLATES;

/** A message ready for the outbox: the template, its parameters, and the text the customer reads. */
export interface FilledTemplate {
  templateName: string;
  languageCode: string;
  parameters: WhatsappTemplateParameters;
  renderedText: string;
}

/**
 * Longest text one parameter gets. Meta's limit is on the whole body (1 024 characters); no
 * parameter of ours needs more than this, and a name typed at checkout is at most 80.
 */
const PARAMETER_MAX = 160;

/**
 * A parameter as WhatsApp accepts it (error 132018 otherwise): one line, no tabs, no run of
 * spaces, never empty. Whatever a customer typed (a receiver's name) goes through here.
 */
export function templateParameter(value: string): string {
  const line = value.replace(/\s+/g, " ").trim().slice(0, PARAMETER_MAX).trim();
  return line === "" ? "-" : line;
}

/** A customer's first name as a template opens with it: letters only, one word, never a link or a sentence. */
const NAME_MAX = 20;

/**
 * The customer's first name as a template parameter (issue 39): whatever was typed at a checkout
 * reaches a number that may not be the typist's, so it must never read as the shop's own words —
 * its first word, letters (and an apostrophe or hyphen inside a name) only, at most 20 characters;
 * "cliente" when nothing is left. "Hola Visita http://evil.example/pago" gives "Hola".
 */
export function firstNameParameter(typed: string | null | undefined): string {
  const word = (typed ?? "").normalize("NFC").trim().split(/\s+/)[0] ?? "";
  const letters = word.replace(/[^\p{L}'-]/gu, "").replace(/^['-]+|['-]+$/g, "");
  return letters.length >= 1 ? letters.slice(0, NAME_MAX) : "cliente";
}

/** Fills a template: checks the count of parameters and whether a button suffix is due. */
export function fillTemplate(key: WhatsappTemplateKey, values: readonly string[], options: { buttonUrlSuffix?: string; siteUrl: string }): FilledTemplate {
  const template: WhatsappTemplate = WHATSAPP_TEMPLATES[key];
  if (values.length !== template.parameters.length)
    throw new Error(`Template ${template.name} takes ${template.parameters.length} parameters, got ${values.length}`);
  if (Boolean(template.button) !== Boolean(options.buttonUrlSuffix)) throw new Error(`Template ${template.name}: button suffix mismatch`);
  const body = values.map(templateParameter);
  const suffix = options.buttonUrlSuffix?.replace(/^\/+/, "") ?? null;
  const text = template.body.replace(/\{\{(\d+)\}\}/g, (_, index: string) => body[Number(index) - 1] ?? "");
  const button = template.button && suffix ? `\n\n[${template.button.text}] ${new URL(suffix, withSlash(options.siteUrl)).toString()}` : "";
  return {
    templateName: template.name,
    languageCode: template.language,
    parameters: { body, buttonUrlSuffix: suffix },
    renderedText: text + button,
  };
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

/** "Faltan 3 paradas antes de la tuya" / "Falta 1 parada…" / "Eres la siguiente parada". */
export function stopsBeforeYours(count: number): string {
  if (count <= 0) return "Eres la siguiente parada";
  return count === 1 ? "Falta 1 parada antes de la tuya" : `Faltan ${count} paradas antes de la tuya`;
}
