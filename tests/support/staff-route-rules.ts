import { STAFF_PERMISSIONS, type StaffPermission } from "@core/staff-permissions";
import type { StaffRole } from "@core/staff-roles";

/**
 * Which permission (core/staff-permissions.ts) each /admin route of app/routes.ts asks for, written
 * down apart from the route modules that guard them. The role-matrix browser test
 * (tests/e2e/admin-role-matrix.test.ts) holds every route's guard to the roles of its permission
 * over HTTP, for every role; the staff menu's unit test (tests/unit/staff-menu.test.tsx) holds the
 * menu each role sees to the same rows, so a role is shown exactly the pages it may open
 * (decisions 0082, 0098).
 */

export interface Rule {
  permission: StaffPermission;
  /** The roles that may use the route: its permission's row. */
  allowed: readonly StaffRole[];
  /** A real URL for a pattern with parameters (ids of the demo data, looked up through the pages). */
  sample?: string;
}

const rule = (permission: StaffPermission, sample?: string): Rule => ({ permission, allowed: STAFF_PERMISSIONS[permission], ...(sample ? { sample } : {}) });

export const STAFF_ROUTE_RULES: Record<string, Rule> = {
  "/admin": rule("inicio.ver"),
  "/admin/reparto": rule("reparto.usar"),
  "/admin/reparto/confirmaciones": rule("reparto.usar"),
  "/admin/reparto/fotos": rule("reparto.usar"),
  "/admin/pedidos/:orderId/cancelar": rule("reembolsos.emitir", "/admin/pedidos/{demoOrderId}/cancelar"),
  "/admin/pedidos/:orderId/reembolsar": rule("reembolsos.emitir", "/admin/pedidos/{demoOrderId}/reembolsar"),
  "/admin/ajustes": rule("ajustes.gestionar"),
  "/admin/equipo": rule("equipo.gestionar"),
  "/admin/auditoria": rule("auditoria.ver"),
  "/admin/calendario": rule("calendario.gestionar"),
  "/admin/distritos": rule("distritos.gestionar"),
  // The seed's first district (identity columns start at 1).
  "/admin/distritos/:districtId": rule("distritos.gestionar", "/admin/distritos/1"),
  "/admin/comprobantes": rule("comprobantes.ver"),
  "/admin/pedidos": rule("pedidos.gestionar"),
  "/admin/pedidos/exportar": rule("pedidos.gestionar"),
  // Issue 38: "Nuevo pedido", the office's phone orders (Pedidos' roles).
  "/admin/pedidos/nuevo": rule("pedidos.gestionar"),
  "/admin/pedidos/:orderId": rule("pedidos.gestionar", "/admin/pedidos/{demoOrderId}"),
  "/admin/despacho": rule("despacho.usar"),
  "/admin/despacho/hoja": rule("despacho.usar"),
  "/admin/mensajes": rule("mensajes.atender"),
  // Issue 38: the demo customer's proven number (the matrix's POST `intent=nada` is refused with a 400).
  "/admin/mensajes/whatsapp/:phone": rule("mensajes.atender", "/admin/mensajes/whatsapp/51987654321"),
  "/admin/contenido": rule("contenido.gestionar"),
  "/admin/contenido/ajustes": rule("contenido.gestionar"),
  "/admin/contenido/textos/:slug": rule("contenido.gestionar", "/admin/contenido/textos/terminos-condiciones"),
  "/admin/contenido/organizaciones": rule("contenido.gestionar"),
  // The seed's first organisation and history slide (identity columns start at 1).
  "/admin/contenido/organizaciones/:organizationId": rule("contenido.gestionar", "/admin/contenido/organizaciones/1"),
  "/admin/contenido/historia": rule("contenido.gestionar"),
  "/admin/contenido/historia/:entryId": rule("contenido.gestionar", "/admin/contenido/historia/1"),
  "/admin/reclamos": rule("reclamos.atender"),
  "/admin/reclamos/:complaintId": rule("reclamos.atender", "/admin/reclamos/{complaintId}"),
  "/admin/suscripciones": rule("suscripciones.gestionar"),
  "/admin/suscripciones/pagos-fallidos": rule("suscripciones.gestionar"),
  "/admin/suscripciones/pronostico": rule("suscripciones.gestionar"),
  "/admin/suscripciones/:subscriptionId": rule("suscripciones.gestionar", "/admin/suscripciones/{demoSubscriptionId}"),
  "/admin/clientes": rule("clientes.gestionar"),
  "/admin/clientes/:customerId": rule("clientes.gestionar", "/admin/clientes/{demoCustomerId}"),
  // Ley 29733 requests are the admin's (decision 0051). The matrix's POST (`intent=nada`) is refused
  // by the anonymisation's confirmation, so the demo customer is never anonymised here.
  "/admin/clientes/:customerId/exportar": rule("datos-personales.gestionar", "/admin/clientes/{demoCustomerId}/exportar"),
  "/admin/clientes/:customerId/anonimizar": rule("datos-personales.gestionar", "/admin/clientes/{demoCustomerId}/anonimizar"),
  // Guest buyers (decision 0061): the demo order has an account, so the pages send staff to it; the
  // role guard answers first either way.
  "/admin/clientes/invitado/:orderId": rule("clientes.gestionar", "/admin/clientes/invitado/{demoOrderId}"),
  "/admin/clientes/invitado/:orderId/exportar": rule("datos-personales.gestionar", "/admin/clientes/invitado/{demoOrderId}/exportar"),
  "/admin/clientes/invitado/:orderId/anonimizar": rule("datos-personales.gestionar", "/admin/clientes/invitado/{demoOrderId}/anonimizar"),
  // People who never bought (decision 0064), named by the sheet filed above (its consumer never bought).
  "/admin/clientes/persona/:reference": rule("clientes.gestionar", "/admin/clientes/persona/reclamo-{complaintId}"),
  "/admin/clientes/persona/:reference/exportar": rule("datos-personales.gestionar", "/admin/clientes/persona/reclamo-{complaintId}/exportar"),
  "/admin/clientes/persona/:reference/anonimizar": rule("datos-personales.gestionar", "/admin/clientes/persona/reclamo-{complaintId}/anonimizar"),
  "/admin/metricas": rule("metricas.ver"),
  "/admin/metricas/exportar": rule("metricas.ver"),
  "/admin/productos": rule("productos.gestionar"),
  // The seed's first product (identity columns start at 1).
  "/admin/productos/:productId": rule("productos.gestionar", "/admin/productos/1"),
  // Drivers' cash (decision 0060): a repartidor sees only their own figure, on /admin/reparto.
  "/admin/caja": rule("caja.ver"),
  // "¿Te queda agua?" reminders (decision 0076): read by operaciones; the switch is the admin's, on /admin/contenido/ajustes.
  "/admin/recordatorios": rule("recordatorios.ver"),
};
