import { formatSoles } from "@core/money";
import { formatLimaDate } from "@core/lima-dates";
import { button, emailLayout, escapeHtml } from "./layout";

interface SubscriptionEmailBase {
  brandName: string;
  firstName: string;
  subscriptionNumber: string;
  manageUrl: string;
}

function subscriptionEmail(base: SubscriptionEmailBase, subject: string, paragraphs: string[], cta: string) {
  const html = emailLayout({
    brandName: base.brandName,
    title: subject,
    body: `<h1 style="font-size:22px;color:#164e63;margin:0 0 12px">Hola, ${escapeHtml(base.firstName)}</h1>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
<p style="margin:24px 0">${button(base.manageUrl, cta)}</p>`,
  });
  const text = [`Hola, ${base.firstName}.`, ...paragraphs, `${cta}: ${base.manageUrl}`].join("\n");
  return { subject, html, text };
}

/** Issue 5: a few days before each renewal, with the date, the amount and where to skip or change it. */
export function renewalReminderEmail(data: SubscriptionEmailBase & { billingDate: string; amountCents: number }) {
  return subscriptionEmail(
    data,
    `Tu suscripción se renueva el ${formatLimaDate(data.billingDate, { day: "numeric", month: "long" })}`,
    [
      `El ${formatLimaDate(data.billingDate)} cobraremos ${formatSoles(data.amountCents)} por tu suscripción ${data.subscriptionNumber}.`,
      "Si quieres saltar la próxima entrega, cambiar la fecha, los productos o pausarla, hazlo desde tu cuenta antes de esa fecha.",
    ],
    "Administrar mi suscripción",
  );
}

export function renewalFailedEmail(data: SubscriptionEmailBase & { amountCents: number; reason: string; nextAttemptDate: string }) {
  return subscriptionEmail(
    data,
    "No pudimos cobrar tu suscripción",
    [
      `No pudimos cobrar ${formatSoles(data.amountCents)} de tu suscripción ${data.subscriptionNumber}: ${data.reason}`,
      `Lo intentaremos de nuevo el ${formatLimaDate(data.nextAttemptDate)}. Para evitar que se pause, actualiza tu tarjeta.`,
    ],
    "Actualizar mi tarjeta",
  );
}

export function subscriptionPastDueEmail(data: SubscriptionEmailBase & { amountCents: number }) {
  return subscriptionEmail(
    data,
    "Tu suscripción quedó pausada",
    [
      `Tras varios intentos no pudimos cobrar ${formatSoles(data.amountCents)} de tu suscripción ${data.subscriptionNumber}, así que la pausamos y no haremos más cobros.`,
      "Actualiza tu tarjeta y reactívala desde tu cuenta cuando quieras.",
    ],
    "Reactivar mi suscripción",
  );
}

export function renewalPaymentLinkEmail(data: SubscriptionEmailBase & { amountCents: number; billingDate: string; payUrl: string }) {
  return subscriptionEmail(
    { ...data, manageUrl: data.payUrl },
    `Paga tu suscripción ${data.subscriptionNumber}`,
    [`Ya puedes pagar ${formatSoles(data.amountCents)} del periodo que empieza el ${formatLimaDate(data.billingDate)}, con Yape, tarjeta o en efectivo.`],
    "Pagar ahora",
  );
}

/** Every self-service change is confirmed by email (issue 5). */
export function subscriptionChangedEmail(data: SubscriptionEmailBase & { change: string }) {
  return subscriptionEmail(
    data,
    `Actualizamos tu suscripción ${data.subscriptionNumber}`,
    [data.change, "Si no hiciste este cambio, escríbenos de inmediato."],
    "Ver mi suscripción",
  );
}

/**
 * Issue 11: the shop changed the price of a product the subscription carries; the customer hears
 * the old and new price and the charge it applies from, before that charge (decision 0055).
 */
export function subscriptionPriceChangeEmail(
  data: SubscriptionEmailBase & { productTitle: string; oldPriceCents: number; newPriceCents: number; fromBillingDate: string; newAmountCents: number | null },
) {
  return subscriptionEmail(
    data,
    `Cambio de precio en tu suscripción ${data.subscriptionNumber}`,
    [
      `El precio de ${data.productTitle} cambia de ${formatSoles(data.oldPriceCents)} a ${formatSoles(data.newPriceCents)}.`,
      `El nuevo precio se aplica desde el cobro del ${formatLimaDate(data.fromBillingDate)}; tus cobros anteriores no cambian.`,
      ...(data.newAmountCents === null ? [] : [`Desde ese cobro pagarás ${formatSoles(data.newAmountCents)} por periodo.`]),
      "Si no deseas continuar, puedes cambiar tus productos, pausar o cancelar tu suscripción antes de esa fecha.",
    ],
    "Ver mi suscripción",
  );
}
