import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import type { CallerMatch } from "@server/customers/index.server";
import { formatLimaInstant } from "@core/lima-dates";

export const NEW_ORDER_PATH = "/admin/pedidos/nuevo";

const linkTo = (query: string, cliente: string) => `${NEW_ORDER_PATH}?${new URLSearchParams({ q: query, cliente })}`;

/**
 * Step one of "Nuevo pedido": whoever is calling, by phone, name, e-mail or DNI. A plain GET form:
 * Enter searches and the page picks the first match (the loader's rule), so a returning customer is
 * one Enter away; another match or "Cliente nuevo" is one link further.
 */
export function CallerSearch({
  query,
  matches,
  picked,
  focus,
  focusKey,
}: {
  query: string;
  matches: CallerMatch[];
  /** The reference of the caller the form is open for, "nuevo", or null. */
  picked: string | null;
  /** Focus the box (nobody picked yet: the next call). */
  focus: boolean;
  /** Changes when the box must take the focus again (an order was just created). */
  focusKey: string;
}) {
  const box = useRef<HTMLInputElement>(null);
  // The next call starts here (issue 38: keyboard first), also after "Crear pedido", where the box
  // stays on the page and React's autoFocus, which acts on mounting only, would not move it.
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [focus, focusKey]);
  return (
    <section aria-labelledby="cliente-titulo" className="mb-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:p-6">
      <h2 id="cliente-titulo" className="mb-3 text-lg font-bold text-slate-900">
        Cliente
      </h2>
      <Form method="get" action={NEW_ORDER_PATH} className="flex flex-wrap items-end gap-2" role="search">
        <div className="min-w-0 flex-1 basis-60">
          <label htmlFor="buscar-cliente" className="mb-1 block text-sm font-semibold">
            Buscar cliente
          </label>
          <input
            id="buscar-cliente"
            name="q"
            type="search"
            ref={box}
            // A new search (or the next call, after "Crear pedido") shows what it searched, not what was typed before.
            key={query}
            defaultValue={query}
            autoComplete="off"
            placeholder="Celular, nombre, e-mail o DNI"
            className="w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base"
          />
        </div>
        <button type="submit" className="rounded-xl bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800">
          Buscar
        </button>
        <Link
          to={linkTo(query, "nuevo")}
          className="rounded-xl border border-brand-700 px-4 py-2.5 font-semibold text-brand-800 hover:bg-brand-50"
          aria-current={picked === "nuevo" ? "true" : undefined}
        >
          Cliente nuevo
        </Link>
      </Form>
      <p className="mt-2 text-sm text-slate-600">Enter elige al primero de la lista.</p>
      {query && matches.length === 0 && (
        <p role="status" className="mt-3 text-slate-800" data-testid="caller-none">
          No encontramos a nadie con «{query}». Regístralo como cliente nuevo.
        </p>
      )}
      {matches.length > 0 && (
        <ul className="mt-3 divide-y divide-slate-100 rounded-xl ring-1 ring-slate-100" data-testid="caller-matches">
          {matches.map((match) => {
            const current = match.reference === picked;
            return (
              <li key={match.reference} className={`flex flex-wrap items-center justify-between gap-2 px-3 py-2 ${current ? "bg-brand-50" : ""}`}>
                <div className="min-w-0">
                  <p className="font-semibold break-words text-slate-900">
                    {match.fullName}{" "}
                    <span className="text-sm font-normal text-slate-600">{match.kind === "account" ? "(cuenta)" : "(invitado, sin cuenta)"}</span>
                  </p>
                  <p className="text-sm break-all text-slate-700">{[match.phone, match.email, match.documentNumber].filter(Boolean).join(" · ")}</p>
                  {match.lastOrderAt && (
                    <p className="text-sm text-slate-600">
                      Último pedido: {formatLimaInstant(match.lastOrderAt, { day: "numeric", month: "short", year: "numeric" })}
                      {match.lastDistrictName ? `, ${match.lastDistrictName}` : ""}
                    </p>
                  )}
                </div>
                {current ? (
                  <span className="text-sm font-semibold text-brand-800">Elegido</span>
                ) : (
                  <Link to={linkTo(query, match.reference)} className="text-sm font-semibold text-brand-800 underline">
                    Elegir<span className="sr-only"> a {match.fullName}</span>
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
