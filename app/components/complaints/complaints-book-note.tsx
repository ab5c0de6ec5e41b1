import { Link } from "react-router";

/** Ley 29571 art. 150 (as amended for e-commerce): the Libro de Reclamaciones one click away at checkout and in the account area. */
export function ComplaintsBookNote({ className = "mx-auto max-w-7xl px-4 pb-6 sm:px-6" }: { className?: string }) {
  return (
    <p className={`mt-8 text-sm text-slate-600 print:hidden ${className}`}>
      ¿Algo no salió bien?{" "}
      <Link to="/libro-de-reclamaciones" className="font-semibold text-brand-800 underline">
        Libro de Reclamaciones
      </Link>
    </p>
  );
}
