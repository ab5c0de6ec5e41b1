/**
 * The staff order list's search and filters as they live in the URL (/admin/pedidos?q=…&estado=…),
 * shared by the list page and its CSV export so both read the same rows. Anything that is not a
 * valid value reads as "no filter": a hand-edited URL never becomes an error page.
 */
import { orderStatuses, type OrderStatus } from "@core/order-labels";
import { isoDate, oneOf, readUrlFilters, searchText, serialId, urlFilterParams, type UrlFilters } from "@core/url-filters";

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
const URL_FILTERS: UrlFilters<StaffOrderFilters> = {
  q: ["q", searchText],
  status: ["estado", oneOf(orderStatuses)],
  from: ["desde", isoDate],
  to: ["hasta", isoDate],
  districtId: ["distrito", serialId],
  paymentMethod: ["pago", oneOf(STAFF_ORDER_PAYMENT_METHODS)],
  orderType: ["tipo", oneOf(STAFF_ORDER_TYPES)],
};

export function parseStaffOrderFilters(params: URLSearchParams): StaffOrderFilters {
  return readUrlFilters(params, URL_FILTERS);
}

/** The query string of these filters (and a page), for links that keep the search. */
export function staffOrderSearchParams(filters: StaffOrderFilters, page = 1): URLSearchParams {
  return urlFilterParams(filters, URL_FILTERS, page);
}

export function hasStaffOrderFilters(filters: StaffOrderFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined);
}
