import type { StaffRole } from "@server/accounts/index.server";

export interface AdminNavLink {
  to: string;
  label: string;
  /** Who sees the link; the route's own `allowRoles` is what actually guards it. `admin` sees all. */
  roles: StaffRole[];
  end?: boolean;
}

/** The staff area's sections, in nav order; each route's own `allowRoles` is what guards it. */
/** The staff area's sections, in nav order; each route's own `allowRoles` is what guards it. */
export const ADMIN_NAV_LINKS: AdminNavLink[] = [
  { to: "/admin", label: "Inicio", roles: ["operaciones", "repartidor"], end: true },
  { to: "/admin/despacho", label: "Despacho", roles: ["operaciones"] },
  { to: "/admin/reparto", label: "Reparto", roles: ["repartidor"] },
  { to: "/admin/caja", label: "Caja", roles: ["operaciones"] },
  { to: "/admin/pedidos", label: "Pedidos", roles: ["operaciones"] },
  { to: "/admin/calendario", label: "Calendario", roles: ["operaciones"] },
  { to: "/admin/distritos", label: "Distritos", roles: ["operaciones"] },
  { to: "/admin/mensajes", label: "Mensajes", roles: ["operaciones"] },
  { to: "/admin/productos", label: "Productos", roles: [] },
  { to: "/admin/contenido", label: "Contenido", roles: [] },
  { to: "/admin/reclamos", label: "Reclamos", roles: ["operaciones"] },
  { to: "/admin/comprobantes", label: "Comprobantes", roles: ["operaciones"] },
  { to: "/admin/suscripciones", label: "Suscripciones", roles: ["operaciones"] },
  { to: "/admin/clientes", label: "Clientes", roles: ["operaciones"] },
  { to: "/admin/recordatorios", label: "Recordatorios", roles: ["operaciones"] },
  { to: "/admin/auditoria", label: "Auditoría", roles: [] },
  { to: "/admin/equipo", label: "Equipo", roles: [] },
  { to: "/admin/metricas", label: "Métricas", roles: [] },
];

export function navLinksFor(role: StaffRole): AdminNavLink[] {
  return ADMIN_NAV_LINKS.filter((link) => role === "admin" || link.roles.includes(role));
}
