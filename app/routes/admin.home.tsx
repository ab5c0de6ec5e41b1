import { Link } from "react-router";
import type { Route } from "./+types/admin.home";
import { AdminPageHeader } from "~/components/admin/admin-shell";
import { navLinksFor } from "~/components/admin/admin-nav-links";
import { formatLimaDate, limaToday } from "@core/lima-dates";
import { allowRoles, staffContext } from "~/staff.server";

export const middleware: Route.MiddlewareFunction[] = [allowRoles("operaciones", "repartidor")];

export function loader({ context }: Route.LoaderArgs) {
  const member = context.get(staffContext);
  return { firstName: member.firstName, today: limaToday(new Date()), links: navLinksFor(member.role).filter((link) => link.to !== "/admin") };
}

export const meta: Route.MetaFunction = () => [{ title: "Inicio · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AdminPageHeader title={`Hola, ${loaderData.firstName}`} />
      <p className="mb-6 text-slate-700 first-letter:uppercase">{formatLimaDate(loaderData.today, { weekday: "long", day: "numeric", month: "long", year: "numeric" })}</p>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {loaderData.links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="block rounded-2xl bg-white p-5 font-semibold text-brand-900 shadow-sm ring-1 ring-slate-100 hover:ring-brand-300">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
