import type { WhatsappTemplateParameters } from "../db/schema";

/**
 * The message templates the shop submits to Meta (issue 25; docs/whatsapp.md lists them with the
 * same text, and a unit test keeps the two equal). Every message the shop starts is one of these:
 * outside the customer's 24-hour window WhatsApp accepts nothing else. All are category UTILITY
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
  category: "UTILITY";
  language: "es";
  body: string;
  /** One per `{{n}}`, in order: what it holds and an example for Meta's review. */
  parameters: readonly { meaning: string; example: string }[];
  /** A URL button `{SITE_URL}/{{1}}`: its text and an example suffix. */
  button: { text: string; meaning: string; example: string } | null;
  /** When the shop sends it. */
  sentWhen: string;
}

export const WHATSAPP_TEMPLATE_LANGUAGE = "es";

export const WHATSAPP_TEMPLATES = {
  orderConfirmed: {
    name: "pedido_confirmado",
    title: "Pedido confirmado",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, confirmamos tu pedido {{2}} por {{3}}. Entrega: {{4}}. Te avisaremos por aquí cuando salga a reparto.",
    parameters: [
      { meaning: "nombre del cliente", example: "María" },
      { meaning: "número de pedido", example: "VA-001015" },
      { meaning: "total pagado", example: "S/ 59.90" },
      { meaning: "fecha y horario de entrega", example: "jueves 14 de mayo, Mañana (9am - 12pm)" },
    ],
    button: { text: "Ver mi pedido", meaning: "la página del pedido", example: "orden/3f1c…?token=…" },
    sentWhen: "al confirmarse el pago del pedido (junto con el correo de confirmación)",
  },
  onTheWay: {
    name: "pedido_en_camino",
    title: "En camino",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu pedido {{2}} salió a reparto y llega hoy en el horario {{3}}. {{4}}. Ten a mano tus bidones vacíos para devolverlos.",
    parameters: [
      { meaning: "nombre del cliente", example: "María" },
      { meaning: "número de pedido", example: "VA-001015" },
      { meaning: "horario de entrega", example: "Mañana (9am - 12pm)" },
      { meaning: "paradas antes de la suya", example: "Faltan 3 paradas antes de la tuya" },
    ],
    button: { text: "Ver mi pedido", meaning: "la página del pedido", example: "orden/3f1c…?token=…" },
    sentWhen: "cuando el repartidor marca «En camino» y la ruta aún no calcula la hora de llegada",
  },
  onTheWayWithArrival: {
    name: "pedido_en_camino_hora",
    title: "En camino (con hora de llegada)",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu pedido {{2}} salió a reparto y llega hoy entre las {{3}} y las {{4}}. {{5}}. Ten a mano tus bidones vacíos para devolverlos.",
    parameters: [
      { meaning: "nombre del cliente", example: "María" },
      { meaning: "número de pedido", example: "VA-001015" },
      { meaning: "llegada estimada, desde", example: "10:30" },
      { meaning: "llegada estimada, hasta", example: "11:30" },
      { meaning: "paradas antes de la suya", example: "Falta 1 parada antes de la tuya" },
    ],
    button: { text: "Ver mi pedido", meaning: "la página del pedido", example: "orden/3f1c…?token=…" },
    sentWhen: "cuando el repartidor marca «En camino» y la ruta conoce la hora de llegada",
  },
  delivered: {
    name: "pedido_entregado",
    title: "Entregado",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, entregamos tu pedido {{2}}; lo recibió {{3}}. Bidones llenos dejados: {{4}}. Vacíos recogidos: {{5}}. Bidones nuestros en tu poder: {{6}}.",
    parameters: [
      { meaning: "nombre del cliente", example: "María" },
      { meaning: "número de pedido", example: "VA-001015" },
      { meaning: "quién lo recibió", example: "Juan Pérez" },
      { meaning: "bidones llenos dejados", example: "2" },
      { meaning: "bidones vacíos recogidos", example: "2" },
      { meaning: "bidones de la tienda en su poder", example: "3" },
    ],
    button: { text: "Ver mi pedido", meaning: "la página del pedido (el enlace de «Repetir pedido» lo reemplazará)", example: "orden/3f1c…?token=…" },
    sentWhen: "cuando el repartidor marca «Entregado»",
  },
  notDelivered: {
    name: "pedido_no_entregado",
    title: "No se pudo entregar",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, hoy no pudimos entregar tu pedido {{2}} (motivo: {{3}}). Elige una nueva fecha de entrega con el botón, o respóndenos por aquí.",
    parameters: [
      { meaning: "nombre del cliente", example: "María" },
      { meaning: "número de pedido", example: "VA-001015" },
      { meaning: "motivo", example: "Cliente ausente" },
    ],
    button: { text: "Elegir nueva fecha", meaning: "la página donde el cliente elige la nueva fecha", example: "orden/3f1c…/nueva-fecha?token=…" },
    sentWhen: "cuando el repartidor marca «No se pudo entregar»",
  },
  paymentCode: {
    name: "codigo_de_pago",
    title: "Código de pago",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu código de pago para el pedido {{2}} es {{3}}. Paga {{4}} con {{5}} hasta el {{6}}; después el código vence.",
    parameters: [
      { meaning: "nombre del cliente", example: "María" },
      { meaning: "número de pedido", example: "VA-001015" },
      { meaning: "código de pago", example: "81234567" },
      { meaning: "monto", example: "S/ 59.90" },
      { meaning: "cómo pagar", example: "Yape o en efectivo en agentes y bodegas" },
      { meaning: "vencimiento (hora de Lima)", example: "14 may. 2026, 18:30" },
    ],
    button: { text: "Ver mi pedido", meaning: "la página del pedido", example: "orden/3f1c…?token=…" },
    sentWhen: "al generarse un código de pago en efectivo o Yape",
  },
  renewalSoon: {
    name: "renovacion_en_2_dias",
    title: "Renovación en 2 días",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, tu suscripción {{2}} se renueva el {{3}} y cobraremos {{4}}. Si quieres saltar la entrega, cambiar la fecha o pausarla, hazlo antes desde tu cuenta.",
    parameters: [
      { meaning: "nombre del cliente", example: "María" },
      { meaning: "número de suscripción", example: "SUS-000042" },
      { meaning: "fecha del cobro", example: "jueves 14 de mayo" },
      { meaning: "monto", example: "S/ 113.05" },
    ],
    button: { text: "Ver mi suscripción", meaning: "la suscripción en la cuenta del cliente", example: "dashboard/suscripciones/3f1c…" },
    sentWhen: "dos días antes de cada renovación",
  },
  renewalFailed: {
    name: "cobro_fallido",
    title: "Cobro fallido",
    category: "UTILITY",
    language: "es",
    body: "Hola {{1}}, no pudimos cobrar {{2}} de tu suscripción {{3}}. {{4}} Paga o actualiza tu tarjeta con el botón.",
    parameters: [
      { meaning: "nombre del cliente", example: "María" },
      { meaning: "monto", example: "S/ 113.05" },
      { meaning: "número de suscripción", example: "SUS-000042" },
      { meaning: "qué sigue", example: "Lo intentaremos de nuevo el jueves 14 de mayo." },
    ],
    button: { text: "Pagar ahora", meaning: "la página de pago con tarjeta de la suscripción", example: "suscripcion/tarjeta/3f1c…?modo=actualizar" },
    sentWhen: "cuando falla el cobro de una renovación (junto con el correo)",
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
