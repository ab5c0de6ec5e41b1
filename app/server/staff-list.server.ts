import { redirect } from "react-router";
import { pageWindow, parsePageParam, withQuery } from "~/lib/pagination";

/** A staff list whose search and filters live in the URL (/admin/pedidos, /admin/suscripciones). */
export interface StaffList<Filters, Row> {
  path: string;
  pageSize: number;
  parseFilters: (params: URLSearchParams) => Filters;
  searchParams: (filters: Filters, page?: number) => URLSearchParams;
  search: (filters: Filters, page: number) => Promise<{ rows: Row[]; total: number }>;
}

/**
 * The page of the list the request's URL asks for. A page past the end (an old link after the
 * filters changed) redirects to the last page with rows.
 */
export async function loadStaffListPage<Filters, Row>(request: Request, list: StaffList<Filters, Row>) {
  const params = new URL(request.url).searchParams;
  const filters = list.parseFilters(params);
  const page = parsePageParam(params.get("page"));
  const { rows, total } = await list.search(filters, page);
  const { lastPage } = pageWindow(page, list.pageSize, total);
  if (page > lastPage) throw redirect(withQuery(list.path, list.searchParams(filters, lastPage)));
  return { rows, total, page, pageSize: list.pageSize, filters };
}
