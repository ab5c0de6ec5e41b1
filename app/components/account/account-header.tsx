import { Link } from "react-router";
import { LogoMark } from "~/components/ui/logo-mark";

export function AccountHeader() {
  return (
    <header className="border-b border-slate-200 bg-white print:hidden">
      <div className="mx-auto flex max-w-7xl items-center justify-between px-4 py-3 sm:px-6">
        <Link to="/" className="flex items-center gap-2 font-bold text-brand-900">
          <LogoMark className="h-8 w-8" />
          <span>Vida Alcalina</span>
        </Link>
        <nav aria-label="Tienda" className="flex items-center gap-4 text-sm font-semibold text-brand-800">
          <Link to="/tienda" className="hover:underline">
            Tienda
          </Link>
          <Link to="/carrito" className="hover:underline">
            Carrito
          </Link>
        </nav>
      </div>
    </header>
  );
}
