import { Outlet } from "react-router";
import type { Route } from "./+types/admin-layout";
import { AdminShell } from "~/components/admin/admin-shell";
import { navLinksFor } from "~/components/admin/admin-nav-links";
import { privatePageHeaders } from "~/order-receipt.server";
import { staffAreaMiddleware, staffContext } from "~/staff.server";

export const middleware: Route.MiddlewareFunction[] = [staffAreaMiddleware];

export function loader({ context }: Route.LoaderArgs) {
  const member = context.get(staffContext);
  return { fullName: member.fullName, role: member.role, links: navLinksFor(member.role) };
}

export const headers = () => privatePageHeaders;

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell links={loaderData.links} fullName={loaderData.fullName} role={loaderData.role}>
      <Outlet />
    </AdminShell>
  );
}
