import { Form, Link, NavLink } from "react-router";
import { LogoMark } from "~/components/ui/logo-mark";
import { staffRoleLabels } from "~/lib/staff-labels";
import type { AdminNavLink } from "./admin-nav-links";

/** The staff area's frame: brand, who is signed in, and the links their role may use. Wraps on a phone, never scrolls sideways. */
export function AdminShell({ links, fullName, role, children }: { links: AdminNavLink[]; fullName: string; role: string; children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white print:hidden">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6">
          <Link to="/admin" className="flex items-center gap-2 font-bold text-brand-900">
            <LogoMark className="h-8 w-8" />
            <span>
              Vida Alcalina <span className="font-semibold text-slate-600">· Back office</span>
            </span>
          </Link>
          <div className="flex items-center gap-3 text-sm">
            <span className="text-slate-700">
              {fullName} <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900">{staffRoleLabels[role] ?? role}</span>
            </span>
            <Form method="post" action="/logout">
              <button type="submit" className="rounded-lg px-2 py-1 font-semibold text-red-700 hover:bg-red-50">
                Cerrar sesión
              </button>
            </Form>
          </div>
        </div>
        <nav aria-label="Back office" className="mx-auto max-w-7xl px-4 pb-2 sm:px-6">
          <ul className="flex flex-wrap gap-1">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.end}
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-2 text-sm font-semibold ${isActive ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"}`
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li>
              <Link to="/" className="block rounded-lg px-3 py-2 text-sm font-semibold text-brand-800 hover:bg-slate-100">
                Ver tienda
              </Link>
            </li>
          </ul>
        </nav>
      </header>
      <main id="contenido" className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
        {children}
      </main>
    </div>
  );
}

/** A page's title line, with room for actions on the right (wrapping under it on a phone). */
export function AdminPageHeader({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      {children}
    </div>
  );
}
