import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { AdminShell } from "~/components/admin/admin-shell";
import { staffMenuFor } from "~/components/admin/staff-menu";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { staffAreaMiddleware, staffContext } from "~/server/staff.server";

export const middleware: Route.MiddlewareFunction[] = [staffAreaMiddleware];

export function loader({ context }: Route.LoaderArgs) {
  const member = context.get(staffContext);
  return { fullName: member.fullName, role: member.role, menu: staffMenuFor(member.role) };
}

export const headers = () => privatePageHeaders;

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell menu={loaderData.menu} fullName={loaderData.fullName} role={loaderData.role}>
      <Outlet />
    </AdminShell>
  );
}
