import { useEffect, useRef } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { CartIcon, MenuIcon, UserIcon } from "~/components/ui/icons";
import { LogoMark } from "~/components/ui/logo-mark";
import { cartItemCount } from "~/lib/cart";
import { useCart } from "~/lib/use-cart";

const navItems = [
  { to: "/", label: "Inicio", end: true },
  { to: "/nosotros", label: "Nosotros", end: false },
  { to: "/tienda", label: "Tienda", end: false },
];

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-4 py-2 font-medium transition ${isActive ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:text-brand-700"}`;

/** Spec §2 Public layout header; the mobile menu is a <details> so it opens without JavaScript. */
export function SiteHeader({ brandName }: { brandName: string }) {
  const { items } = useCart();
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  // A client-side navigation keeps the layout mounted, so the open mobile menu is closed by hand.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);
  const count = cartItemCount(items);
  const cartLabel = count === 0 ? "Carrito, vacío" : `Carrito, ${count} ${count === 1 ? "producto" : "productos"}`;

  return (
    <header className="no-print sticky top-0 z-30 border-b border-slate-100 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 font-bold text-brand-800" aria-label={`${brandName}, inicio`}>
          <LogoMark className="h-9 w-9" />
          <span className="text-lg">{brandName}</span>
        </Link>

        <nav aria-label="Principal" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {navItems.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end} className={navLinkClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="flex items-center gap-1">
          <Link
            to="/carrito"
            aria-label={cartLabel}
            data-testid="header-cart"
            className="relative rounded-full p-2 text-slate-700 hover:bg-brand-50 hover:text-brand-800"
          >
            <CartIcon />
            {count > 0 && (
              <span
                data-testid="cart-count"
                aria-hidden="true"
                className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-700 px-1 text-xs font-bold text-white"
              >
                {count > 99 ? "99+" : count}
              </span>
            )}
          </Link>
          <Link to="/login" aria-label="Mi cuenta" className="rounded-full p-2 text-slate-700 hover:bg-brand-50 hover:text-brand-800">
            <UserIcon />
          </Link>
          <details ref={menu} className="group relative md:hidden" data-testid="mobile-menu">
            <summary className="flex cursor-pointer list-none rounded-full p-2 text-slate-700 hover:bg-brand-50 [&::-webkit-details-marker]:hidden">
              <MenuIcon />
              <span className="sr-only">Abrir menú</span>
            </summary>
            <nav aria-label="Menú móvil" className="absolute right-0 mt-2 w-56 rounded-2xl border border-slate-100 bg-white p-2 shadow-xl">
              <ul className="flex flex-col">
                {navItems.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end={item.end} className={({ isActive }) => `block ${navLinkClass({ isActive })}`}>
                      {item.label}
                    </NavLink>
                  </li>
                ))}
                <li>
                  <Link to="/login" className="mt-1 block rounded-full bg-brand-700 px-4 py-2 text-center font-semibold text-white hover:bg-brand-800">
                    Iniciar sesión
                  </Link>
                </li>
              </ul>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
