import { formatLimaDate, formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import type { WhatsappTemplateMessage } from "./outbox";
import { fillTemplate, firstNameParameter, stopsBeforeYours } from "./templates";

/**
 * The shop's WhatsApp messages, one builder per template (issue 25): each takes plain data from
 * the domain whose event it reports and gives the outbox row, with the dedupe key of that event.
 * Paths are relative to SITE_URL (the approved URL button is `{SITE_URL}/{{1}}`).
 */
interface Recipient {
  /** The phone the customer gave (9 digits as stored, or `51…`). */
  phone: string | null;
  firstName: string;
  userId: string | null;
  email: string | null;
  siteUrl: string;
}

interface OrderRecipient extends Recipient {
  orderId: string;
  orderNumber: string;
  /** The order's page with its signed token (`orden/{id}?token=…`). */
  orderPath: string;
}

const forOrder = (data: OrderRecipient) => ({ orderId: data.orderId, userId: data.userId, customerEmail: data.email, phone: data.phone });

/**
 * `amountLabel` (issue 38) replaces the amount for an order paid at the door: "S/ 84.00, a pagar al
 * recibir (efectivo)". One key per order, so the payment collected later sends no second one.
 */
export function orderConfirmedWhatsapp(data: OrderRecipient & { totalCents: number; deliveryLabel: string; amountLabel?: string }): WhatsappTemplateMessage {
  return {
    dedupeKey: `order-confirmed:${data.orderId}`,
    ...forOrder(data),
    template: fillTemplate(
      "orderConfirmed",
      [firstNameParameter(data.firstName), data.orderNumber, data.amountLabel ?? formatSoles(data.totalCents), data.deliveryLabel],
      {
        buttonUrlSuffix: data.orderPath,
        siteUrl: data.siteUrl,
      },
    ),
  };
}

/** An estimated arrival, "HH:MM" to "HH:MM" in Lima (server/deliveries/arrival-window.ts). */
export interface ArrivalWindow {
  from: string;
  to: string;
}

export function onTheWayWhatsapp(
  data: OrderRecipient & { deliveryId: string; windowLabel: string; stopsBefore: number; arrival: ArrivalWindow | null },
): WhatsappTemplateMessage {
  const stops = stopsBeforeYours(data.stopsBefore);
  const options = { buttonUrlSuffix: data.orderPath, siteUrl: data.siteUrl };
  return {
    dedupeKey: `delivery-on-the-way:${data.deliveryId}`,
    ...forOrder(data),
    template: data.arrival
      ? fillTemplate("onTheWayWithArrival", [firstNameParameter(data.firstName), data.orderNumber, data.arrival.from, data.arrival.to, stops], options)
      : fillTemplate("onTheWay", [firstNameParameter(data.firstName), data.orderNumber, data.windowLabel, stops], options),
  };
}

/**
 * Issue 40: the slot promised at checkout will be missed. One per delivery and Lima day (the key),
 * so a route that stays late does not write again at every pass of the job.
 */
export function lateWhatsapp(
  data: OrderRecipient & { deliveryId: string; date: string; windowLabel: string; reason: string; arrival: ArrivalWindow },
): WhatsappTemplateMessage {
  const news = `Nueva llegada estimada: entre las ${data.arrival.from} y las ${data.arrival.to}`;
  return {
    dedupeKey: `delivery-late:${data.deliveryId}:${data.date}`,
    ...forOrder(data),
    template: fillTemplate("late", [firstNameParameter(data.firstName), data.orderNumber, data.windowLabel, data.reason, news], {
      buttonUrlSuffix: data.orderPath,
      siteUrl: data.siteUrl,
    }),
  };
}

export function deliveredWhatsapp(
  data: OrderRecipient & { deliveryId: string; receiverName: string; fullLeft: number; emptiesCollected: number; bidonBalance: number; linkPath: string },
): WhatsappTemplateMessage {
  return {
    dedupeKey: `delivery-delivered:${data.deliveryId}`,
    ...forOrder(data),
    template: fillTemplate(
      "delivered",
      [
        firstNameParameter(data.firstName),
        data.orderNumber,
        data.receiverName,
        String(data.fullLeft),
        String(data.emptiesCollected),
        String(data.bidonBalance),
      ],
      { buttonUrlSuffix: data.linkPath, siteUrl: data.siteUrl },
    ),
  };
}

/** "¿Te queda agua?" (decision 0076): the reorder reminder, for a number whose opt-in names it. */
export function reorderReminderWhatsapp(
  data: Recipient & { reminderId: string; lastOrderId: string; runsOutOn: string; itemsSummary: string; reorderPath: string },
): WhatsappTemplateMessage {
  return {
    dedupeKey: `reorder-reminder:${data.reminderId}`,
    phone: data.phone,
    // The order it repeats: a guest's number is proven for their orders, not for an account (issue 39).
    orderId: data.lastOrderId,
    userId: data.userId,
    customerEmail: data.email,
    covers: "reminders",
    template: fillTemplate("reorderReminder", [firstNameParameter(data.firstName), formatLimaDate(data.runsOutOn), data.itemsSummary], {
      buttonUrlSuffix: data.reorderPath,
      siteUrl: data.siteUrl,
    }),
  };
}

export function notDeliveredWhatsapp(
  data: OrderRecipient & { deliveryId: string; attemptId: string; reasonLabel: string; newDatePath: string },
): WhatsappTemplateMessage {
  return {
    dedupeKey: `delivery-failed:${data.deliveryId}:${data.attemptId}`,
    ...forOrder(data),
    template: fillTemplate("notDelivered", [firstNameParameter(data.firstName), data.orderNumber, data.reasonLabel], {
      buttonUrlSuffix: data.newDatePath,
      siteUrl: data.siteUrl,
    }),
  };
}

const PAYMENT_WAYS: Record<string, string> = {
  yape: "Yape",
  cash: "Yape, banca por internet o en efectivo en agentes y bodegas",
};

export function paymentCodeWhatsapp(
  data: OrderRecipient & { paymentId: string; code: string; amountCents: number; method: string; expiresAt: Date },
): WhatsappTemplateMessage {
  return {
    dedupeKey: `payment-code:${data.paymentId}`,
    ...forOrder(data),
    template: fillTemplate(
      "paymentCode",
      [
        firstNameParameter(data.firstName),
        data.orderNumber,
        data.code,
        formatSoles(data.amountCents),
        PAYMENT_WAYS[data.method] ?? "Yape o en efectivo",
        formatLimaInstant(data.expiresAt),
      ],
      { buttonUrlSuffix: data.orderPath, siteUrl: data.siteUrl },
    ),
  };
}

/** "Tu link de pago" (issue 38): the payment page of an order the office typed in by phone. */
export function paymentLinkWhatsapp(
  data: OrderRecipient & { paymentId: string; amountCents: number; payPath: string; expiresAt: Date },
): WhatsappTemplateMessage {
  return {
    dedupeKey: `payment-link:${data.paymentId}`,
    ...forOrder(data),
    template: fillTemplate(
      "paymentLink",
      [firstNameParameter(data.firstName), data.orderNumber, formatSoles(data.amountCents), formatLimaInstant(data.expiresAt)],
      {
        buttonUrlSuffix: data.payPath,
        siteUrl: data.siteUrl,
      },
    ),
  };
}

interface SubscriptionRecipient extends Recipient {
  subscriptionId: string;
  subscriptionNumber: string;
}

export function renewalSoonWhatsapp(data: SubscriptionRecipient & { periodNumber: number; billingDate: string; amountCents: number }): WhatsappTemplateMessage {
  return {
    dedupeKey: `renewal-soon:${data.subscriptionId}:${data.periodNumber}`,
    phone: data.phone,
    subscriptionId: data.subscriptionId,
    userId: data.userId,
    customerEmail: data.email,
    template: fillTemplate(
      "renewalSoon",
      [firstNameParameter(data.firstName), data.subscriptionNumber, formatLimaDate(data.billingDate), formatSoles(data.amountCents)],
      {
        buttonUrlSuffix: `dashboard/suscripciones/${data.subscriptionId}`,
        siteUrl: data.siteUrl,
      },
    ),
  };
}

export function renewalFailedWhatsapp(
  data: SubscriptionRecipient & { periodNumber: number; attempt: number; amountCents: number; nextAttemptDate: string | null },
): WhatsappTemplateMessage {
  const next = data.nextAttemptDate ? `Lo intentaremos de nuevo el ${formatLimaDate(data.nextAttemptDate)}.` : "Pausamos tu suscripción hasta que se pague.";
  return {
    dedupeKey: `renewal-failed:${data.subscriptionId}:${data.periodNumber}:${data.attempt}`,
    phone: data.phone,
    subscriptionId: data.subscriptionId,
    userId: data.userId,
    customerEmail: data.email,
    template: fillTemplate("renewalFailed", [firstNameParameter(data.firstName), formatSoles(data.amountCents), data.subscriptionNumber, next], {
      buttonUrlSuffix: `suscripcion/tarjeta/${data.subscriptionId}?modo=actualizar`,
      siteUrl: data.siteUrl,
    }),
  };
}
