import type { StaffRole } from "@server/accounts/index.server";
import { may, type StaffPermission } from "@core/staff-permissions";

/**
 * The permission (core/staff-permissions.ts) that opens each page the staff menu links to. Each of
 * these pages is guarded by `allowStaffPage("/admin/…")` (app/server/staff.server.ts), which reads
 * its row here, and the menu shows a role exactly the pages these rows let it open, so the two
 * cannot drift (decision 0082). The pages below each section (details, exports, sub-pages) name
 * their own permission with `allowStaff(…)`; the role-matrix test (tests/e2e/admin-role-matrix.test.ts)
 * holds every staff route to its rule.
 */
const pagePermissions = {
  "/admin": "inicio.ver",
  "/admin/despacho": "despacho.usar",
  "/admin/reparto": "reparto.usar",
  "/admin/caja": "caja.ver",
  "/admin/calendario": "calendario.gestionar",
  "/admin/pedidos": "pedidos.gestionar",
  "/admin/suscripciones": "suscripciones.gestionar",
  "/admin/clientes": "clientes.gestionar",
  "/admin/comprobantes": "comprobantes.ver",
  "/admin/recordatorios": "recordatorios.ver",
  "/admin/productos": "productos.gestionar",
  "/admin/distritos": "distritos.gestionar",
  "/admin/contenido": "contenido.gestionar",
  "/admin/mensajes": "mensajes.atender",
  "/admin/reclamos": "reclamos.atender",
  "/admin/equipo": "equipo.gestionar",
  "/admin/auditoria": "auditoria.ver",
  "/admin/metricas": "metricas.ver",
  "/admin/ajustes": "ajustes.gestionar",
} satisfies Record<string, StaffPermission>;

export type StaffPage = keyof typeof pagePermissions;

export const STAFF_PAGE_PERMISSIONS: Readonly<Record<StaffPage, StaffPermission>> = pagePermissions;

/** Whether `role` may open `page`: the same answer the page's guard gives. */
export function mayOpenStaffPage(role: StaffRole, page: StaffPage): boolean {
  return may(role, STAFF_PAGE_PERMISSIONS[page]);
}

export interface StaffMenuLink {
  to: StaffPage;
  label: string;
  /** Marked current only on this exact path (Inicio), not on the pages below it. */
  end?: boolean;
}

export interface StaffMenuGroup {
  label: string;
  links: StaffMenuLink[];
}

interface MenuEntry extends StaffMenuLink {
  /**
   * Roles that may open the page but whose menu leaves it out. It can only hide a link, never show
   * one the guard refuses: a repartidor's Inicio only points to their route, so their menu is the
   * route alone.
   */
  leftOutFor?: StaffRole[];
}

/** The staff menu grouped by job, in order (issue 28). */
const STAFF_MENU: { label: string; links: MenuEntry[] }[] = [
  {
    label: "Operación",
    links: [
      { to: "/admin", label: "Inicio", end: true, leftOutFor: ["repartidor"] },
      { to: "/admin/despacho", label: "Despacho" },
      { to: "/admin/reparto", label: "Reparto" },
      { to: "/admin/caja", label: "Caja" },
      { to: "/admin/calendario", label: "Calendario" },
    ],
  },
  {
    label: "Ventas",
    links: [
      { to: "/admin/pedidos", label: "Pedidos" },
      { to: "/admin/suscripciones", label: "Suscripciones" },
      { to: "/admin/clientes", label: "Clientes" },
      { to: "/admin/comprobantes", label: "Comprobantes" },
      { to: "/admin/recordatorios", label: "Recordatorios" },
    ],
  },
  {
    label: "Catálogo",
    links: [
      { to: "/admin/productos", label: "Productos" },
      { to: "/admin/distritos", label: "Distritos" },
      { to: "/admin/contenido", label: "Contenido" },
    ],
  },
  {
    label: "Atención",
    links: [
      { to: "/admin/mensajes", label: "Mensajes" },
      { to: "/admin/reclamos", label: "Reclamos" },
    ],
  },
  {
    label: "Administración",
    links: [
      { to: "/admin/equipo", label: "Equipo" },
      { to: "/admin/auditoria", label: "Auditoría" },
      { to: "/admin/metricas", label: "Métricas" },
      { to: "/admin/ajustes", label: "Ajustes" },
    ],
  },
];

/** The menu `role` sees: the pages it may open, by job; a group with none of them is left out. */
export function staffMenuFor(role: StaffRole): StaffMenuGroup[] {
  return STAFF_MENU.map((group) => ({
    label: group.label,
    links: group.links
      .filter((entry) => mayOpenStaffPage(role, entry.to) && !entry.leftOutFor?.includes(role))
      .map(({ to, label, end }) => (end ? { to, label, end } : { to, label })),
  })).filter((group) => group.links.length > 0);
}
