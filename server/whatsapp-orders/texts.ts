import { formatLimaDate } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { repeatButtonId } from "@core/whatsapp-repeat";
import type { RepeatQuoteLine, WhatsappInteractive } from "../db/schema";

/*
 * What the shop writes back to "lo de siempre" (issue 38), in Spanish. The summary is an
 * interactive reply-buttons message: a body of at most 1 024 characters, a footer of at most 60,
 * and two buttons titled at most 20 (Meta's limits; the Cloud API stand-in refuses more).
 */

/** The office's hours as the shop's answers name them; change here if the office's hours change. */
export const OFFICE_HOURS = "de lunes a sábado, de 9 a. m. a 6 p. m.";

const BODY_MAX = 1024;
const SHORT_WINDOWS: Record<string, string> = { manana: "mañana, 9–12", tarde: "tarde, 2–6" };

/** "jueves 3 de diciembre (mañana, 9–12)": the delivery as the summary and the confirmation say it. */
export function deliveryMoment(date: string, window: string): string {
  return `${formatLimaDate(date).replace(",", "")} (${SHORT_WINDOWS[window] ?? window})`;
}

/** A customer's first word, for "Hola María": letters only, never a sentence (the name is the customer's own). */
export function greetingName(firstName: string | null | undefined): string {
  const word = (firstName ?? "").trim().split(/\s+/)[0] ?? "";
  const letters = word.replace(/[^\p{L}'-]/gu, "").slice(0, 20);
  return letters ? ` ${letters}` : "";
}

const lineText = (line: RepeatQuoteLine) =>
  `• ${line.quantity} × ${line.variantTitle ? `${line.title} ${line.variantTitle}` : line.title}: ${formatSoles(line.lineTotalCents)}`;

export interface QuoteForText {
  id: string;
  lines: RepeatQuoteLine[];
  leftOut: string[];
  garantiaCents: number;
  creditCents: number;
  totalCents: number;
  payCents: number;
  districtName: string;
  address: string;
  deliveryDate: string;
  deliveryWindow: string;
}

/**
 * The summary with its two buttons, `Confirmar` and `Cambiar` (their ids carry the summary's id).
 * `lead` opens it when it replaces another ("Ese resumen ya venció…").
 */
export function quoteMessage(quote: QuoteForText, input: { firstName: string | null; lead?: string | null; validHours: number }): WhatsappInteractive {
  const render = (shown: number) => {
    const lines = quote.lines.slice(0, shown).map(lineText);
    if (shown < quote.lines.length) lines.push(`… y ${quote.lines.length - shown} productos más`);
    return [
      input.lead ?? null,
      `Hola${greetingName(input.firstName)}, este es tu pedido de siempre:`,
      lines.join("\n"),
      quote.leftOut.length ? `(${quote.leftOut.join(" ")})` : null,
      quote.garantiaCents > 0 ? `Garantía de bidones: ${formatSoles(quote.garantiaCents)}` : null,
      quote.creditCents > 0 ? `Tu saldo a favor: −${formatSoles(quote.creditCents)}` : null,
      `Entrega: ${deliveryMoment(quote.deliveryDate, quote.deliveryWindow)}`,
      `Dirección: ${quote.address}, ${quote.districtName}`,
      `Total: ${formatSoles(quote.payCents)}. Pagas al recibir (contra entrega, en efectivo).`,
      "¿Lo confirmamos?",
    ]
      .filter((part): part is string => Boolean(part))
      .join("\n\n");
  };
  // A long order still fits Meta's 1 024 characters: the last lines give way, the amounts and the question stay.
  let shown = quote.lines.length;
  let body = render(shown);
  while (body.length > BODY_MAX && shown > 1) body = render(--shown);
  return {
    body: body.slice(0, BODY_MAX),
    footer: `Válido por ${input.validHours} horas`,
    buttons: [
      { id: repeatButtonId("confirm", quote.id), title: "Confirmar" },
      { id: repeatButtonId("change", quote.id), title: "Cambiar" },
    ],
  };
}

export function confirmedText(order: { orderNumber: string; deliveryDate: string; deliveryWindow: string; payCents: number }): string {
  return `Listo, tu pedido ${order.orderNumber} llega el ${deliveryMoment(order.deliveryDate, order.deliveryWindow)}. Pagas ${formatSoles(order.payCents)} al recibir.`;
}

export function alreadyConfirmedText(order: { orderNumber: string; deliveryDate: string; deliveryWindow: string; payCents: number }): string {
  return `Tu pedido ${order.orderNumber} ya está confirmado: llega el ${deliveryMoment(order.deliveryDate, order.deliveryWindow)}. Pagas ${formatSoles(order.payCents)} al recibir.`;
}

export function changeText(reorderLink: string): string {
  return `Claro. Cambia productos, cantidades, fecha o dirección aquí, con tus datos ya completos: ${reorderLink}`;
}

export function changeAfterConfirmText(orderNumber: string): string {
  return `Tu pedido ${orderNumber} ya está confirmado. Si quieres cambiar algo, cuéntanos por aquí y te ayudamos.`;
}

/** A number that is not a proven customer's: nothing is ordered, and it is told where to go. */
export function strangerText(input: { brandName: string; contactEmail: string; siteUrl: string }): string {
  return `Hola, para pedir por aquí necesitamos confirmar tu número. Escríbenos a ${input.contactEmail} (atendemos ${OFFICE_HOURS}) o pide en ${input.siteUrl}. ¡Gracias por escribir a ${input.brandName}!`;
}

/** A proven customer without an earlier order. */
export function noOrderText(input: { firstName: string | null; contactEmail: string; siteUrl: string }): string {
  return `Hola${greetingName(input.firstName)}, aún no encontramos un pedido tuyo para repetir. Pide en ${input.siteUrl} o escríbenos a ${input.contactEmail} (atendemos ${OFFICE_HOURS}).`;
}

/** Why a summary could not be made, and the "Repetir pedido" link to do it on the site. */
const CANNOT_REASONS: Record<string, string> = {
  not_served: "ya no repartimos en el distrito de tu último pedido",
  nothing_available: "los productos de tu último pedido ya no están disponibles",
  minimum: "tu último pedido no llega al mínimo de compra con los precios de hoy",
  no_date: "no tenemos fechas de entrega libres para tu distrito en los próximos días",
  no_data: "nos faltan datos de tu último pedido",
};

export function cannotRepeatText(reason: string, reorderLink: string): string {
  return `No pudimos preparar tu pedido de siempre por aquí: ${CANNOT_REASONS[reason] ?? "hubo un problema"}. Ármalo en la web, con tus datos ya completos: ${reorderLink}`;
}

/** A refusal of the order itself (pago contra entrega not possible now): its message, and the way to order online. */
export function refusedText(message: string, reorderLink: string): string {
  return `${message.trim()} Puedes hacer tu pedido y pagarlo en línea aquí: ${reorderLink}`;
}

export const STALE_QUOTE_TEXT = "Ese resumen ya no está vigente. Escribe «lo de siempre» y te enviamos uno nuevo.";
export const EXPIRED_LEAD = "Ese resumen ya venció. Este es el actualizado:";
export const DATE_GONE_LEAD = "La fecha que te ofrecimos ya no está disponible. Te proponemos esta:";
export const PRICES_CHANGED_LEAD = "Los precios o productos cambiaron. Este es tu pedido con los de hoy:";
