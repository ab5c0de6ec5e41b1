/**
 * The staff subscription list's search and filters as they live in the URL
 * (/admin/suscripciones?q=…&estado=…). Anything that is not a valid value reads as "no filter":
 * a hand-edited URL never becomes an error page.
 */
import { isIsoDate } from "@core/lima-dates";
import { isPlainLine } from "@core/input-schemas";

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

const PARAM = { q: "q", status: "estado", plan: "plan", districtId: "distrito", billingMethod: "cobro", from: "desde", to: "hasta" } as const;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((each) => each === value);
}

export function parseStaffSubscriptionFilters(params: URLSearchParams): StaffSubscriptionFilters {
  const filters: StaffSubscriptionFilters = {};
  const q = params.get(PARAM.q)?.trim() ?? "";
  if (q && q.length <= 120 && isPlainLine(q)) filters.q = q;
  const status = oneOf(SUBSCRIPTION_STATUSES, params.get(PARAM.status));
  if (status) filters.status = status;
  const plan = oneOf(SUBSCRIPTION_PLANS, params.get(PARAM.plan));
  if (plan) filters.plan = plan;
  const district = params.get(PARAM.districtId) ?? "";
  if (/^\d{1,9}$/.test(district) && Number(district) > 0) filters.districtId = Number(district);
  const billingMethod = oneOf(BILLING_METHODS, params.get(PARAM.billingMethod));
  if (billingMethod) filters.billingMethod = billingMethod;
  const from = params.get(PARAM.from) ?? "";
  if (isIsoDate(from)) filters.from = from;
  const to = params.get(PARAM.to) ?? "";
  if (isIsoDate(to)) filters.to = to;
  return filters;
}

/** The query string of these filters (and a page), for links that keep the search. */
export function staffSubscriptionSearchParams(filters: StaffSubscriptionFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, name] of Object.entries(PARAM) as [keyof StaffSubscriptionFilters, string][]) {
    const value = filters[key];
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  if (page > 1) params.set("page", String(page));
  return params;
}
