/** `?page=N` as a page number: anything that is not a whole number from 1 up reads as page 1. */
export function parsePageParam(value: string | null): number {
  if (!value || !/^\d{1,6}$/.test(value)) return 1;
  return Math.max(1, Number(value));
}

/** Which rows a page shows, 1-based, and the last page (1 when there is nothing to show). */
export function pageWindow(page: number, pageSize: number, total: number): { from: number; to: number; lastPage: number } {
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  if (total === 0) return { from: 0, to: 0, lastPage };
  const from = (page - 1) * pageSize + 1;
  return { from, to: Math.min(total, page * pageSize), lastPage };
}

/** `path` with the query string of `params`, or the bare path when there is none. */
export function withQuery(path: string, params: URLSearchParams): string {
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
