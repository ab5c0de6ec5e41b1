import { Link } from "react-router";

export function NotFoundPage() {
  return (
    <main id="contenido" className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-6 py-16 text-center">
      <p className="text-6xl font-black text-brand-700" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-bold text-brand-800">Página no encontrada</h1>
      <p className="text-slate-600">La página que buscas no existe o fue movida. Revisa la dirección o vuelve a la tienda.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/" className="rounded-full border border-brand-700 px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50">
          Ir al inicio
        </Link>
        <Link to="/tienda" className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
          Ver productos
        </Link>
      </div>
    </main>
  );
}
