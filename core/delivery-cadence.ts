/**
 * How often a subscription's deliveries come, inside its plan (decision 0097, issue 41): the plan
 * (mensual / anual) says how often we charge, the cadence how often we deliver. Pure rules both
 * the checkout's summary and the server's prices read.
 */
export const deliveryCadences = ["weekly", "biweekly", "monthly"] as const;
export type DeliveryCadence = (typeof deliveryCadences)[number];

export const DEFAULT_DELIVERY_CADENCE: DeliveryCadence = "monthly";

export const deliveryCadenceLabels: Record<DeliveryCadence, string> = {
  weekly: "Semanal",
  biweekly: "Cada 2 semanas",
  monthly: "Mensual",
};

const perMonth: Record<DeliveryCadence, number> = { weekly: 4, biweekly: 2, monthly: 1 };

export function isDeliveryCadence(value: unknown): value is DeliveryCadence {
  return typeof value === "string" && (deliveryCadences as readonly string[]).includes(value);
}

/** A stored cadence; anything else (an order that is not a subscription's, older rows) is monthly. */
export function cadenceOf(value: string | null | undefined): DeliveryCadence {
  return isDeliveryCadence(value) ? value : DEFAULT_DELIVERY_CADENCE;
}

/** Deliveries one month of a plan pays for: 4 (semanal), 2 (cada 2 semanas), 1 (mensual). */
export function deliveriesPerMonth(cadence: DeliveryCadence): number {
  return perMonth[cadence];
}

/** Days between two deliveries of the same month: 7 or 14 (monthly has one a month). */
export function daysBetweenDeliveries(cadence: Exclude<DeliveryCadence, "monthly">): number {
  return 28 / perMonth[cadence];
}

/**
 * The subscription's monthly base (`baseAmountCents`): one delivery's products × the month's
 * deliveries. The one place the cadence enters a price: every reader then applies the plan's
 * discount to this base (`orderSummary`), as for a monthly cadence before (decision 0097).
 */
export function monthlySubtotalCents(deliverySubtotalCents: number, cadence: DeliveryCadence): number {
  return deliverySubtotalCents * perMonth[cadence];
}

const planNotes: Record<DeliveryCadence, string> = {
  weekly: " · Entrega semanal (4 al mes)",
  biweekly: " · Entrega cada 2 semanas (2 al mes)",
  monthly: "",
};

/**
 * "Suscripción Mensual · Entrega semanal (4 al mes)": a subscription's plan and, when it is not
 * monthly, its cadence, the one phrase the checkout's summary, the order pages and the order
 * confirmation e-mail say. A monthly cadence says the plan alone, as the checkout always did.
 */
export function subscriptionPlanLabel(frequency: string, cadence: string | null | undefined): string {
  return `Suscripción ${frequency === "anual" ? "Anual" : "Mensual"}${planNotes[cadenceOf(cadence)]}`;
}

/** A subscription order's plan phrase (`subscriptionPlanLabel`); null for an order that is not a subscription's. */
export function orderPlanLabel(order: { subscriptionFrequency: string | null; deliveryCadence: string | null }): string | null {
  return order.subscriptionFrequency ? subscriptionPlanLabel(order.subscriptionFrequency, order.deliveryCadence) : null;
}

/** What the customer reads where the cadence is chosen and on the subscription page (decision 0097: the 5th week). */
export function cadenceTerms(cadence: DeliveryCadence): string {
  if (cadence === "weekly") return "Pagas 4 entregas al mes y recibes 4. Cuando un mes trae una quinta semana, esa semana no hay entrega y no se cobra.";
  if (cadence === "biweekly") return "Pagas 2 entregas al mes y recibes 2, cada dos semanas.";
  return "Una entrega al mes, el mismo día de la semana.";
}
