import { useEffect, useRef } from "react";
import { Form, Link, useSubmit } from "react-router";
import { invoiceStatusChips, type InvoiceStatusFilter } from "@core/invoice-list";

function chipHref(status: InvoiceStatusFilter, query: string): string {
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (status !== "all") params.set("status", status);
  const search = params.toString();
  return search ? `/dashboard/facturas?${search}` : "/dashboard/facturas";
}

/**
 * Search and status chips live in the URL (`?q=`, `?status=`), so they work without JavaScript,
 * survive a reload and can be linked (/mi-cuenta/facturas?status=pending). With JavaScript the
 * search also runs as the customer types.
 */
export function InvoiceFilters({ status, query, counts }: { status: InvoiceStatusFilter; query: string; counts: Record<InvoiceStatusFilter, number> }) {
  const submit = useSubmit();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Keep the box in step with the URL (e.g. after 'Limpiar filtros'), but never under the typing cursor.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = query;
  }, [query]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <div className="space-y-3">
      <Form method="get" action="/dashboard/facturas" role="search" className="flex gap-2">
        {status !== "all" && <input type="hidden" name="status" value={status} />}
        <input
          ref={input}
          type="search"
          name="q"
          defaultValue={query}
          placeholder="Buscar facturas..."
          aria-label="Buscar facturas"
          maxLength={100}
          onChange={(event) => {
            const form = event.currentTarget.form;
            clearTimeout(timer.current);
            // A failed search reaches the route's error boundary; the promise only says when it settled.
            timer.current = setTimeout(() => {
              if (form) void submit(form, { replace: true, preventScrollReset: true });
            }, 350);
          }}
          className="min-w-0 flex-1 rounded-full border border-slate-300 bg-white px-4 py-2.5 text-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none"
        />
        <button type="submit" className="rounded-full bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800">
          Buscar
        </button>
      </Form>
      {/* A native disclosure: the 'Filtros' toggle works before (and without) JavaScript. */}
      <details open={status !== "all"} className="group rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-100">
        <summary className="cursor-pointer list-none px-1 text-sm font-semibold text-brand-900 select-none">
          Filtros{" "}
          <span aria-hidden="true" className="inline-block transition group-open:rotate-180">
            ▾
          </span>
        </summary>
        <nav aria-label="Estado de las facturas" className="mt-3 flex flex-wrap gap-2">
          {invoiceStatusChips.map((chip) => {
            const selected = chip.value === status;
            return (
              <Link
                key={chip.value}
                to={chipHref(chip.value, query)}
                replace
                preventScrollReset
                aria-current={selected ? "true" : undefined}
                data-testid={`invoice-chip-${chip.value}`}
                className={`inline-flex items-center gap-2 rounded-full px-4 py-1.5 text-sm font-semibold ${
                  selected ? "bg-brand-700 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"
                }`}
              >
                {chip.label}
                <span className={`rounded-full px-2 text-xs ${selected ? "bg-white text-brand-800" : "bg-white text-slate-700"}`} data-testid="chip-count">
                  {counts[chip.value]}
                </span>
              </Link>
            );
          })}
        </nav>
      </details>
    </div>
  );
}
