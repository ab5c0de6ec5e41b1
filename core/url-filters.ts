/**
 * A staff list's search and filters as they live in the URL (/admin/pedidos?q=…&estado=…), each
 * filter under its Spanish parameter name. Anything that is not a valid value reads as "no
 * filter": a hand-edited URL never becomes an error page.
 */
import { isIsoDate } from "@core/lima-dates";
import { isPlainLine } from "@core/input-schemas";

/** A filter's URL parameter and how its value is read (undefined: no filter). */
type UrlFilter<T> = readonly [param: string, read: (value: string | null) => T | undefined];
export type UrlFilters<Filters> = { readonly [K in keyof Filters]-?: UrlFilter<NonNullable<Filters[K]>> };

/** The "Buscar" box: trimmed, one plain line of at most 120 characters. */
export function searchText(value: string | null): string | undefined {
  const text = value?.trim() ?? "";
  return text && text.length <= 120 && isPlainLine(text) ? text : undefined;
}

/** A Lima calendar date (YYYY-MM-DD). */
export function isoDate(value: string | null): string | undefined {
  return value !== null && isIsoDate(value) ? value : undefined;
}

/** A serial id (a district's). */
export function serialId(value: string | null): number | undefined {
  return value !== null && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

export function oneOf<T extends string>(values: readonly T[]): (value: string | null) => T | undefined {
  return (value) => values.find((each) => each === value);
}

/** The valid filters of `params`; the ones not given or not valid are left out. */
export function readUrlFilters<Filters extends object>(params: URLSearchParams, filters: UrlFilters<Filters>): Filters {
  const read: Partial<Filters> = {};
  for (const key of Object.keys(filters) as (keyof Filters)[]) {
    const [param, readValue] = filters[key];
    const value = readValue(params.get(param));
    if (value !== undefined) read[key] = value;
  }
  return read as Filters;
}

/** The query string of these filters (and a page), for links that keep the search. */
export function urlFilterParams<Filters extends object>(values: Filters, filters: UrlFilters<Filters>, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(filters) as (keyof Filters)[]) {
    const value = values[key];
    if (value !== undefined && value !== "") params.set(filters[key][0], String(value));
  }
  if (page > 1) params.set("page", String(page));
  return params;
}
