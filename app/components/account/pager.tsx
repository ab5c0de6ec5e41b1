import { Link } from "react-router";
import { pageWindow } from "~/lib/pagination";

const linkClass = "rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold";

/**
 * Spec §2: previous/next links and 'Mostrando x a y de n resultados'. Plain links, so paging
 * works before (and without) JavaScript.
 */
export function Pager({ page, pageSize, total, hrefFor }: { page: number; pageSize: number; total: number; hrefFor: (page: number) => string }) {
  const { from, to, lastPage } = pageWindow(page, pageSize, total);
  return (
    <div className="mt-4 flex flex-col items-center justify-between gap-3 sm:flex-row print:hidden">
      <p className="text-sm text-slate-600" data-testid="pager-summary">
        Mostrando {from} a {to} de {total} resultados
      </p>
      {lastPage > 1 && (
        <nav aria-label="Paginación" className="flex gap-2">
          {page > 1 ? (
            <Link to={hrefFor(page - 1)} rel="prev" className={`${linkClass} text-brand-800 hover:bg-brand-50`}>
              Anterior
            </Link>
          ) : (
            <span aria-disabled="true" className={`${linkClass} text-slate-400`}>
              Anterior
            </span>
          )}
          {page < lastPage ? (
            <Link to={hrefFor(page + 1)} rel="next" className={`${linkClass} text-brand-800 hover:bg-brand-50`}>
              Siguiente
            </Link>
          ) : (
            <span aria-disabled="true" className={`${linkClass} text-slate-400`}>
              Siguiente
            </span>
          )}
        </nav>
      )}
    </div>
  );
}
