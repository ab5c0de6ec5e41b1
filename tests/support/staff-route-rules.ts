/**
 * Who may open each /admin route of app/routes.ts, written down apart from the code that guards
 * them. The role-matrix browser test (tests/e2e/admin-role-matrix.test.ts) holds every route's guard
 * to its row over HTTP; the staff menu's unit test (tests/unit/staff-menu.test.tsx) holds the menu
 * each role sees to the same rows, so a role is shown exactly the pages it may open (decision 0082).
 */

export type Who = "repartidor" | "operaciones";

export interface Rule {
  /** Roles besides admin (who may do everything). */
  allowed: Who[];
  /** A real URL for a pattern with parameters (ids of the demo data, looked up through the pages). */
  sample?: string;
}

export const STAFF_ROUTE_RULES: Record<string, Rule> = {
  "/admin": { allowed: ["operaciones", "repartidor"] },
  "/admin/reparto": { allowed: ["repartidor"] },
  "/admin/reparto/confirmaciones": { allowed: ["repartidor"] },
  "/admin/reparto/fotos": { allowed: ["repartidor"] },
  "/admin/pedidos/:orderId/cancelar": { allowed: ["operaciones"], sample: "/admin/pedidos/{demoOrderId}/cancelar" },
  "/admin/pedidos/:orderId/reembolsar": { allowed: ["operaciones"], sample: "/admin/pedidos/{demoOrderId}/reembolsar" },
  "/admin/ajustes": { allowed: [] },
  "/admin/equipo": { allowed: [] },
  "/admin/auditoria": { allowed: [] },
  "/admin/calendario": { allowed: ["operaciones"] },
  "/admin/distritos": { allowed: ["operaciones"] },
  // The seed's first district (identity columns start at 1).
  "/admin/distritos/:districtId": { allowed: ["operaciones"], sample: "/admin/distritos/1" },
  "/admin/comprobantes": { allowed: ["operaciones"] },
  "/admin/pedidos": { allowed: ["operaciones"] },
  "/admin/pedidos/exportar": { allowed: ["operaciones"] },
  // Issue 38: "Nuevo pedido", the office's phone orders (Pedidos' roles).
  "/admin/pedidos/nuevo": { allowed: ["operaciones"] },
  "/admin/pedidos/:orderId": { allowed: ["operaciones"], sample: "/admin/pedidos/{demoOrderId}" },
  "/admin/despacho": { allowed: ["operaciones"] },
  "/admin/despacho/hoja": { allowed: ["operaciones"] },
  "/admin/mensajes": { allowed: ["operaciones"] },
  // Issue 38: the demo customer's proven number (the matrix's POST `intent=nada` is refused with a 400).
  "/admin/mensajes/whatsapp/:phone": { allowed: ["operaciones"], sample: "/admin/mensajes/whatsapp/51987654321" },
  "/admin/contenido": { allowed: [] },
  "/admin/contenido/ajustes": { allowed: [] },
  "/admin/contenido/textos/:slug": { allowed: [], sample: "/admin/contenido/textos/terminos-condiciones" },
  "/admin/contenido/organizaciones": { allowed: [] },
  // The seed's first organisation and history slide (identity columns start at 1).
  "/admin/contenido/organizaciones/:organizationId": { allowed: [], sample: "/admin/contenido/organizaciones/1" },
  "/admin/contenido/historia": { allowed: [] },
  "/admin/contenido/historia/:entryId": { allowed: [], sample: "/admin/contenido/historia/1" },
  "/admin/reclamos": { allowed: ["operaciones"] },
  "/admin/reclamos/:complaintId": { allowed: ["operaciones"], sample: "/admin/reclamos/{complaintId}" },
  "/admin/suscripciones": { allowed: ["operaciones"] },
  "/admin/suscripciones/pagos-fallidos": { allowed: ["operaciones"] },
  "/admin/suscripciones/pronostico": { allowed: ["operaciones"] },
  "/admin/suscripciones/:subscriptionId": { allowed: ["operaciones"], sample: "/admin/suscripciones/{demoSubscriptionId}" },
  "/admin/clientes": { allowed: ["operaciones"] },
  "/admin/clientes/:customerId": { allowed: ["operaciones"], sample: "/admin/clientes/{demoCustomerId}" },
  // Ley 29733 requests are the admin's (decision 0051). The matrix's POST (`intent=nada`) is refused
  // by the anonymisation's confirmation, so the demo customer is never anonymised here.
  "/admin/clientes/:customerId/exportar": { allowed: [], sample: "/admin/clientes/{demoCustomerId}/exportar" },
  "/admin/clientes/:customerId/anonimizar": { allowed: [], sample: "/admin/clientes/{demoCustomerId}/anonimizar" },
  // Guest buyers (decision 0061): the demo order has an account, so the pages send staff to it; the
  // role guard answers first either way.
  "/admin/clientes/invitado/:orderId": { allowed: ["operaciones"], sample: "/admin/clientes/invitado/{demoOrderId}" },
  "/admin/clientes/invitado/:orderId/exportar": { allowed: [], sample: "/admin/clientes/invitado/{demoOrderId}/exportar" },
  "/admin/clientes/invitado/:orderId/anonimizar": { allowed: [], sample: "/admin/clientes/invitado/{demoOrderId}/anonimizar" },
  // People who never bought (decision 0064), named by the sheet filed above (its consumer never bought).
  "/admin/clientes/persona/:reference": { allowed: ["operaciones"], sample: "/admin/clientes/persona/reclamo-{complaintId}" },
  "/admin/clientes/persona/:reference/exportar": { allowed: [], sample: "/admin/clientes/persona/reclamo-{complaintId}/exportar" },
  "/admin/clientes/persona/:reference/anonimizar": { allowed: [], sample: "/admin/clientes/persona/reclamo-{complaintId}/anonimizar" },
  "/admin/metricas": { allowed: [] },
  "/admin/metricas/exportar": { allowed: [] },
  "/admin/productos": { allowed: [] },
  // The seed's first product (identity columns start at 1).
  "/admin/productos/:productId": { allowed: [], sample: "/admin/productos/1" },
  // Drivers' cash (decision 0060): a repartidor sees only their own figure, on /admin/reparto.
  "/admin/caja": { allowed: ["operaciones"] },
  // "¿Te queda agua?" reminders (decision 0076): read by operaciones; the switch is the admin's, on /admin/contenido/ajustes.
  "/admin/recordatorios": { allowed: ["operaciones"] },
};
