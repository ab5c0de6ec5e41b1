import type { StaffRole } from "@server/accounts/index.server";

export interface AdminNavLink {
  to: string;
  label: string;
  /** Who sees the link; the route's own `allowRoles` is what actually guards it. `admin` sees all. */
  roles: StaffRole[];
  end?: boolean;
}

/** Inicio, Despacho, Reparto, Pedidos, Calendario (delivery capacity and closed days), Mensajes (from /contact), Contenido (issue 11), Reclamos (Libro de Reclamaciones), Comprobantes (SUNAT), Auditoría, Equipo, Productos (issue 11). */
export const ADMIN_NAV_LINKS: AdminNavLink[] = [
  { to: "/admin", label: "Inicio", roles: ["operaciones", "repartidor"], end: true },
  { to: "/admin/despacho", label: "Despacho", roles: ["operaciones"] },
  { to: "/admin/reparto", label: "Reparto", roles: ["repartidor"] },
  { to: "/admin/pedidos", label: "Pedidos", roles: ["operaciones"] },
  { to: "/admin/calendario", label: "Calendario", roles: ["operaciones"] },
  { to: "/admin/mensajes", label: "Mensajes", roles: ["operaciones"] },
  { to: "/admin/contenido", label: "Contenido", roles: [] },
  { to: "/admin/reclamos", label: "Reclamos", roles: ["operaciones"] },
  { to: "/admin/comprobantes", label: "Comprobantes", roles: ["operaciones"] },
  { to: "/admin/auditoria", label: "Auditoría", roles: [] },
  { to: "/admin/equipo", label: "Equipo", roles: [] },
  { to: "/admin/productos", label: "Productos", roles: [] },
];

export function navLinksFor(role: StaffRole): AdminNavLink[] {
  return ADMIN_NAV_LINKS.filter((link) => role === "admin" || link.roles.includes(role));
}
