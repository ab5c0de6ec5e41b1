/**
 * The staff subscription list's search and filters as they live in the URL
 * (/admin/suscripciones?q=…&estado=…). Anything that is not a valid value reads as "no filter":
 * a hand-edited URL never becomes an error page.
 */
import { isoDate, oneOf, readUrlFilters, searchText, serialId, urlFilterParams, type UrlFilters } from "@core/url-filters";

export const SUBSCRIPTION_STATUSES = ["pending_payment", "active", "paused", "past_due", "cancelled"] as const;
export const SUBSCRIPTION_PLANS = ["mensual", "anual"] as const;
export const BILLING_METHODS = ["card", "payment_link"] as const;

export const subscriptionStatusLabels: Record<string, string> = {
  pending_payment: "Pago inicial pendiente",
  active: "Activa",
  paused: "Pausada",
  past_due: "Pago vencido",
  cancelled: "Cancelada",
};
export const billingMethodLabels: Record<string, string> = { card: "Tarjeta guardada", payment_link: "Enlace de pago" };
export const periodStatusLabels: Record<string, string> = {
  due: "Por cobrar",
  charging: "Cobrando",
  paid: "Pagado",
  failed: "Rechazado",
  awaiting_payment: "Esperando pago (enlace)",
  skipped: "Saltado",
};

export interface StaffSubscriptionFilters {
  /** Customer e-mail or name, subscription number (SUS-001234) or id. */
  q?: string;
  status?: (typeof SUBSCRIPTION_STATUSES)[number];
  plan?: (typeof SUBSCRIPTION_PLANS)[number];
  districtId?: number;
  billingMethod?: (typeof BILLING_METHODS)[number];
  /** Next charge date range, Lima calendar dates, inclusive. */
  from?: string;
  to?: string;
}

const URL_FILTERS: UrlFilters<StaffSubscriptionFilters> = {
  q: ["q", searchText],
  status: ["estado", oneOf(SUBSCRIPTION_STATUSES)],
  plan: ["plan", oneOf(SUBSCRIPTION_PLANS)],
  districtId: ["distrito", serialId],
  billingMethod: ["cobro", oneOf(BILLING_METHODS)],
  from: ["desde", isoDate],
  to: ["hasta", isoDate],
};

export function parseStaffSubscriptionFilters(params: URLSearchParams): StaffSubscriptionFilters {
  return readUrlFilters(params, URL_FILTERS);
}

/** The query string of these filters (and a page), for links that keep the search. */
export function staffSubscriptionSearchParams(filters: StaffSubscriptionFilters, page = 1): URLSearchParams {
  return urlFilterParams(filters, URL_FILTERS, page);
}
