import type { StaffRole } from "./staff-roles";

/**
 * Who may do what in the back office (issue 42, decision 0098): one named permission per thing a
 * staff member may open or do, and the roles that hold it. This is the rule itself: the route
 * guards (`allowStaff(…)` in app/server/staff.server.ts), the staff menu, the domains' own checks
 * and the role-matrix test all read it, so changing who may do what is an edit here and nowhere
 * else. The admin may do everything (issue 10) and is named in every row; a unit test holds that.
 * Adding a role: docs/back-office.md, "Adding a role".
 */
const permissions = {
  // Operación
  /** Inicio, the staff area's first page (a repartidor's menu leaves it out: it points to their route). */
  "inicio.ver": ["admin", "operaciones", "repartidor"],
  /** Inicio's picture of the day: today's orders, late deliveries, comprobantes near their deadline. */
  "dia.dirigir": ["admin", "operaciones"],
  /** Inicio's alarms of failed jobs and dead messages, and "Reintentar" on them. */
  "alarmas.gestionar": ["admin"],
  "despacho.usar": ["admin", "operaciones"],
  /** The driver's route, its confirmations and delivery photos (an admin only on a route of their own). */
  "reparto.usar": ["admin", "repartidor"],
  "caja.ver": ["admin", "operaciones"],
  "calendario.gestionar": ["admin", "operaciones"],
  // Ventas
  /** Orders: list, detail, export, phone orders, cancelling (with the refund it takes). */
  "pedidos.gestionar": ["admin", "operaciones"],
  "reembolsos.emitir": ["admin", "operaciones"],
  /** Refunds and cancellations above operaciones' per-order limit (decision 0071). */
  "reembolsos.sin-limite": ["admin"],
  "suscripciones.gestionar": ["admin", "operaciones"],
  /** Customers, guest buyers and people who never bought: their pages, and garantías settled by hand. */
  "clientes.gestionar": ["admin", "operaciones"],
  /** Ley 29733 requests: a person's data exported or anonymised (decision 0051). */
  "datos-personales.gestionar": ["admin"],
  "comprobantes.ver": ["admin", "operaciones"],
  "recordatorios.ver": ["admin", "operaciones"],
  // Catálogo
  "productos.gestionar": ["admin"],
  "distritos.gestionar": ["admin", "operaciones"],
  /** Contenido, its texts and settings (the reminders' switch among them). */
  "contenido.gestionar": ["admin"],
  // Atención
  "mensajes.atender": ["admin", "operaciones"],
  "reclamos.atender": ["admin", "operaciones"],
  // Administración
  "equipo.gestionar": ["admin"],
  "auditoria.ver": ["admin"],
  "metricas.ver": ["admin"],
  /** Ajustes, operaciones' refund limit among them. */
  "ajustes.gestionar": ["admin"],
} as const satisfies Record<string, readonly StaffRole[]>;

export type StaffPermission = keyof typeof permissions;

export const STAFF_PERMISSIONS: Readonly<Record<StaffPermission, readonly StaffRole[]>> = permissions;

/** Whether someone with `role` holds `permission`; a customer (or an unknown role) holds none. */
export function may(role: string, permission: StaffPermission): boolean {
  return (STAFF_PERMISSIONS[permission] as readonly string[]).includes(role);
}
