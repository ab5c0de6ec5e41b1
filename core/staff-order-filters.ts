/**
 * The staff order list's search and filters as they live in the URL (/admin/pedidos?q=…&estado=…),
 * shared by the list page and its CSV export so both read the same rows. Anything that is not a
 * valid value reads as "no filter": a hand-edited URL never becomes an error page.
 */
import { orderStatuses, type OrderStatus } from "@core/order-labels";
import { isIsoDate } from "@core/lima-dates";
import { isPlainLine } from "@core/input-schemas";

export const STAFF_ORDER_PAYMENT_METHODS = ["card", "yape", "cash"] as const;
export const STAFF_ORDER_TYPES = ["one-time", "subscription"] as const;

export interface StaffOrderFilters {
  /** The "Buscar" box: order number, e-mail, name, phone or document. */
  q?: string;
  status?: OrderStatus;
  /** Lima calendar dates of the order's creation, inclusive. */
  from?: string;
  to?: string;
  districtId?: number;
  paymentMethod?: (typeof STAFF_ORDER_PAYMENT_METHODS)[number];
  orderType?: (typeof STAFF_ORDER_TYPES)[number];
}

/** URL parameter names, in Spanish like the rest of the shop's URLs. */
const PARAM = { q: "q", status: "estado", from: "desde", to: "hasta", districtId: "distrito", paymentMethod: "pago", orderType: "tipo" } as const;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((each) => each === value);
}

export function parseStaffOrderFilters(params: URLSearchParams): StaffOrderFilters {
  const filters: StaffOrderFilters = {};
  const q = params.get(PARAM.q)?.trim() ?? "";
  if (q && q.length <= 120 && isPlainLine(q)) filters.q = q;
  const status = oneOf(orderStatuses, params.get(PARAM.status));
  if (status) filters.status = status;
  const from = params.get(PARAM.from) ?? "";
  if (isIsoDate(from)) filters.from = from;
  const to = params.get(PARAM.to) ?? "";
  if (isIsoDate(to)) filters.to = to;
  const district = params.get(PARAM.districtId) ?? "";
  if (/^\d{1,9}$/.test(district) && Number(district) > 0) filters.districtId = Number(district);
  const paymentMethod = oneOf(STAFF_ORDER_PAYMENT_METHODS, params.get(PARAM.paymentMethod));
  if (paymentMethod) filters.paymentMethod = paymentMethod;
  const orderType = oneOf(STAFF_ORDER_TYPES, params.get(PARAM.orderType));
  if (orderType) filters.orderType = orderType;
  return filters;
}

/** The query string of these filters (and a page), for links that keep the search. */
export function staffOrderSearchParams(filters: StaffOrderFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, name] of Object.entries(PARAM) as [keyof StaffOrderFilters, string][]) {
    const value = filters[key];
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  if (page > 1) params.set("page", String(page));
  return params;
}

export function hasStaffOrderFilters(filters: StaffOrderFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined);
}
