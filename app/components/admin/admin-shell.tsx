import { Form, Link } from "react-router";
import { LogoMark } from "~/components/ui/logo-mark";
import { useLinkDiscovery } from "~/lib/link-discovery";
import { staffRoleLabels } from "~/lib/staff-labels";
import type { StaffMenuGroup } from "./staff-menu";
import { StaffNav } from "./staff-nav";

/** The staff area's frame: brand, who is signed in, and the menu of their role. Wraps on a phone, never scrolls sideways. */
export function AdminShell({ menu, fullName, role, children }: { menu: StaffMenuGroup[]; fullName: string; role: string; children: React.ReactNode }) {
  const discover = useLinkDiscovery();
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white print:hidden">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6">
          <Link discover={discover} to="/admin" className="flex items-center gap-2 font-bold text-brand-900">
            <LogoMark className="h-8 w-8" />
            <span>
              Vida Alcalina <span className="font-semibold text-slate-600">· Back office</span>
            </span>
          </Link>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <Link discover={discover} to="/" className="rounded-lg px-2 py-1 font-semibold text-brand-800 hover:bg-slate-100">
              Ver tienda
            </Link>
            <span className="text-slate-700">
              {fullName} <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900">{staffRoleLabels[role] ?? role}</span>
            </span>
            <Form discover={discover} method="post" action="/logout">
              <button type="submit" className="rounded-lg px-2 py-1 font-semibold text-red-700 hover:bg-red-50">
                Cerrar sesión
              </button>
            </Form>
          </div>
        </div>
        <StaffNav groups={menu} discover={discover} />
      </header>
      <main id="contenido" className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
        {children}
      </main>
    </div>
  );
}
