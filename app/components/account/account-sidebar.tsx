import { Form, NavLink } from "react-router";

const links = [
  { to: "/dashboard", label: "Inicio", end: true },
  { to: "/dashboard/pedidos", label: "Mis pedidos" },
  { to: "/dashboard/envios", label: "Mis envíos" },
  { to: "/dashboard/facturas", label: "Facturas" },
  { to: "/dashboard/suscripcion", label: "Suscripción" },
  { to: "/dashboard/perfil", label: "Mi perfil" },
];

/** Spec §2: Inicio, Mis pedidos, Mi perfil, Cerrar sesión; plus the other account pages, so each is one click away. */
export function AccountSidebar({ fullName, initials, email }: { fullName: string; initials: string; email: string }) {
  return (
    <aside className="shrink-0 lg:w-64 print:hidden">
      <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
        <div className="flex items-center gap-3">
          <span aria-hidden="true" className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white">
            {initials}
          </span>
          <div className="min-w-0">
            <p className="truncate font-semibold text-slate-900" data-testid="account-name">
              {fullName}
            </p>
            <p className="truncate text-sm text-slate-500">{email}</p>
          </div>
        </div>
        <nav aria-label="Mi cuenta" className="mt-4">
          <ul className="-mx-1 flex flex-wrap gap-1 pb-1 lg:mx-0 lg:flex-col lg:pb-0">
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
                <button
                  type="submit"
                  className="block w-full rounded-xl px-3 py-2 text-left text-sm font-semibold whitespace-nowrap text-red-700 hover:bg-red-50"
                >
                  Cerrar sesión
                </button>
              </Form>
            </li>
          </ul>
        </nav>
      </div>
    </aside>
  );
}
