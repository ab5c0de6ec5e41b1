import { Form, NavLink, useLocation } from "react-router";

const links = [
  { to: "/dashboard", label: "Inicio", end: true },
  { to: "/dashboard/pedidos", label: "Mis pedidos" },
  { to: "/dashboard/envios", label: "Mis envíos" },
  { to: "/dashboard/facturas", label: "Facturas" },
  { to: "/dashboard/suscripcion", label: "Suscripción" },
  { to: "/dashboard/perfil", label: "Mi perfil" },
];

/** The link of the page shown: its own entry, or the entry of the list it belongs to (an order under "Mis pedidos"). */
function currentLabel(pathname: string): string {
  const match = [...links].reverse().find((link) => (link.end ? pathname === link.to : pathname === link.to || pathname.startsWith(`${link.to}/`)));
  if (match) return match.label;
  return pathname.startsWith("/dashboard/suscripciones") ? "Suscripción" : "Inicio";
}

function MenuLinks({ className }: { className: string }) {
  return (
    <nav aria-label="Mi cuenta">
      <ul className={className}>
        {links.map((link) => (
          <li key={link.to} className="shrink-0">
            <NavLink
              to={link.to}
              end={link.end}
              className={({ isActive }) =>
                `block rounded-xl px-3 py-2 text-sm font-semibold whitespace-nowrap ${isActive ? "bg-brand-50 text-brand-900" : "text-slate-700 hover:bg-slate-50"}`
              }
            >
              {link.label}
            </NavLink>
          </li>
        ))}
        <li className="shrink-0">
          <Form method="post" action="/logout">
            <button type="submit" className="block w-full rounded-xl px-3 py-2 text-left text-sm font-semibold whitespace-nowrap text-red-700 hover:bg-red-50">
              Cerrar sesión
            </button>
          </Form>
        </li>
      </ul>
    </nav>
  );
}

/**
 * Spec §2: Inicio, Mis pedidos, Mi perfil, Cerrar sesión; plus the other account pages, so each is
 * one click away. On a phone the menu folds into one line naming the page shown (issue 41: the open
 * list took ~400 px of a 740 px screen on every account page); a <details>, so it opens without
 * JavaScript. Only one of the two menus is displayed at a time, so the page has one "Mi cuenta".
 */
export function AccountSidebar({ fullName, initials, email }: { fullName: string; initials: string; email: string }) {
  const { pathname } = useLocation();
  return (
    <aside className="shrink-0 lg:w-64 print:hidden">
      <div className="rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-100 lg:p-4">
        <div className="flex items-center gap-3">
          <span
            aria-hidden="true"
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white lg:h-12 lg:w-12 lg:text-lg"
          >
            {initials}
          </span>
          <div className="min-w-0">
            <p className="truncate font-semibold text-slate-900" data-testid="account-name">
              {fullName}
            </p>
            <p className="truncate text-sm text-slate-500">{email}</p>
          </div>
        </div>
        {/* Keyed by the page: a link followed from the open menu lands on a page with the menu folded. */}
        <details key={pathname} className="group mt-2 lg:hidden" data-testid="account-menu">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-xl bg-slate-50 px-3 py-2 text-sm font-semibold text-slate-800 [&::-webkit-details-marker]:hidden">
            <span>
              Menú de mi cuenta: <span className="text-brand-900">{currentLabel(pathname)}</span>
            </span>
            <span aria-hidden="true" className="transition group-open:rotate-180">
              ▾
            </span>
          </summary>
          <MenuLinks className="mt-2 grid grid-cols-2 gap-1" />
        </details>
        <div className="mt-4 hidden lg:block">
          <MenuLinks className="flex flex-col gap-1" />
        </div>
      </div>
    </aside>
  );
}
