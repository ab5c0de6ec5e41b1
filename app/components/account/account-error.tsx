import { isRouteErrorResponse, Link, useRevalidator } from "react-router";

/**
 * The account pages' error view, inside the account layout: a 404 says the spec's 'no encontrado'
 * message carried by the thrown response; anything else says `fallback` with a retry button.
 */
export function AccountError({ error, fallback, backTo }: { error: unknown; fallback: string; backTo?: { to: string; label: string } }) {
  const revalidator = useRevalidator();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  const message = notFound && typeof error.data === "string" ? error.data : fallback;
  return (
    <section className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-100">
      <h1 className="text-xl font-bold text-slate-900">{notFound ? message : "Algo salió mal"}</h1>
      {!notFound && (
        <p role="alert" className="mt-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {message}
        </p>
      )}
      <div className="mt-5 flex flex-wrap gap-3">
        {backTo && (
          <Link to={backTo.to} className="rounded-full border border-brand-700 px-5 py-2.5 font-semibold text-brand-800 hover:bg-brand-50">
            {backTo.label}
          </Link>
        )}
        {!notFound && (
          <button type="button" onClick={() => revalidator.revalidate()} className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800">
            Reintentar
          </button>
        )}
      </div>
    </section>
  );
}
