import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  layout("routes/public-layout.tsx", [
    index("routes/home.tsx"),
    route("nosotros", "routes/nosotros.tsx"),
    route("tienda", "routes/tienda.tsx"),
    route("tienda/producto", "routes/product-from-state.tsx"),
    route("tienda/producto/:slug", "routes/product-detail.tsx"),
    route("carrito", "routes/carrito.tsx"),
    route("checkout", "routes/checkout.tsx"),
    route("pago/sandbox/:paymentId", "routes/sandbox-payment.tsx"),
    route("pago/culqi/:paymentId", "routes/culqi-payment.tsx"),
    route("success", "routes/success.tsx"),
    route("pago-error", "routes/pago-error.tsx"),
    route("orden/:orderId", "routes/order-status.tsx"),
    // Issue 25: the customer picks a new date for a delivery that could not be made.
    route("orden/:orderId/nueva-fecha", "routes/order-new-date.tsx"),
    route("gracias", "routes/gracias.tsx"),
    route("suscripcion/tarjeta/:subscriptionId", "routes/subscription-card.tsx"),
    route("suscripcion/bienvenido", "routes/subscription-welcome.tsx"),
    route("flow/register-return", "routes/flow-register-return.tsx"),
    route("resume-cart", "routes/resume-cart.tsx"),
    // "Repetir pedido" (decision 0076): the order's customer, or the holder of its signed e-mail link.
    route("repetir-pedido/:orderId", "routes/repeat-order.tsx"),
    route("preferencias-de-correo", "routes/email-preferences.tsx"),
    // The double opt-in's confirmation page (decision 0072): its GET only shows, its button confirms.
    route("preferencias-de-correo/confirmar", "routes/email-consent-confirm.tsx"),
    route("terminos", "routes/terminos.tsx"),
    route("privacidad", "routes/privacidad.tsx"),
    route("contact", "routes/contact.tsx"),
    route("libro-de-reclamaciones", "routes/libro-de-reclamaciones.tsx"),
    route("libro-de-reclamaciones/hoja/:token", "routes/libro-de-reclamaciones.hoja.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),

  // Outside any layout (spec §2 route table).
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("verificar-correo", "routes/verify-email.tsx"),
  route("logout", "routes/logout.ts"),

  // The account area: every page below needs a session (spec §6).
  layout("routes/account-layout.tsx", [
    route("dashboard", "routes/dashboard.tsx"),
    route("dashboard/pedidos", "routes/dashboard.orders.tsx"),
    route("dashboard/pedidos/:orderId", "routes/dashboard.order-detail.tsx"),
    // Issue 39: a guest order's owner adds it from its confirmation e-mail (its GET shows, its button adds).
    route("dashboard/agregar-pedido/:orderId", "routes/dashboard.add-order.tsx"),
    route("dashboard/perfil", "routes/dashboard.profile.tsx"),
    route("dashboard/suscripcion", "routes/dashboard.subscription.tsx"),
    route("dashboard/suscripciones/:subscriptionId", "routes/dashboard.subscription-detail.tsx"),
    route("dashboard/facturas", "routes/dashboard.invoices.tsx"),
    route("dashboard/facturas/:invoiceId", "routes/dashboard.invoice-detail.tsx"),
    route("dashboard/envios", "routes/dashboard.deliveries.tsx"),
    route("dashboard/envios/:deliveryId", "routes/dashboard.delivery-detail.tsx"),
  ]),
  // Files of the account area: same guard, no page around them.
  route("dashboard/facturas/:invoiceId/pdf", "routes/invoice-pdf.ts"),
  route("dashboard/facturas/descargar-todas", "routes/invoices-archive.ts"),
  // Issue 40: the photo of the bidones at the door, for the order's customer only.
  route("dashboard/envios/:deliveryId/foto", "routes/delivery-photo.ts"),
  // The consumer's copy of a complaints-book sheet as PDF (a file, no page around it).
  route("libro-de-reclamaciones/hoja/:token/pdf", "routes/libro-de-reclamaciones.hoja-pdf.ts"),

  // The staff area (issue 10): the layout admits staff only; each page states its own roles.
  layout("routes/admin-layout.tsx", [
    route("admin", "routes/admin.home.tsx"),
    route("admin/reparto", "routes/admin.reparto.tsx"),
    // The driver app's queue of taps, sent by the phone (issue 26, decision 0079).
    route("admin/reparto/confirmaciones", "routes/admin.reparto-confirmaciones.ts"),
    // Issue 40: the photos of the bidones at the door, sent by the phone before the tap naming them.
    route("admin/reparto/fotos", "routes/admin.reparto-fotos.ts"),
    route("admin/pedidos/:orderId/cancelar", "routes/admin.cancel-order.tsx"),
    route("admin/pedidos/:orderId/reembolsar", "routes/admin.refund-order.tsx"),
    route("admin/ajustes", "routes/admin.settings.tsx"),
    route("admin/equipo", "routes/admin.team.tsx"),
    route("admin/auditoria", "routes/admin.audit.tsx"),
    route("admin/calendario", "routes/admin.calendar.tsx"),
    route("admin/distritos", "routes/admin.districts.tsx"),
    route("admin/distritos/:districtId", "routes/admin.district.tsx"),
    route("admin/pedidos", "routes/admin.orders.tsx"),
    // Issue 38: the office types in an order given by phone or WhatsApp.
    route("admin/pedidos/nuevo", "routes/admin.new-order.tsx"),
    route("admin/pedidos/exportar", "routes/admin.orders-export.ts"),
    route("admin/pedidos/:orderId", "routes/admin.order-detail.tsx"),
    route("admin/despacho", "routes/admin.despacho.tsx"),
    route("admin/despacho/hoja", "routes/admin.despacho-hoja.tsx"),
    route("admin/mensajes", "routes/admin.messages.tsx"),
    // Issue 38: one customer's WhatsApp conversation, with free-text replies inside the 24-hour window.
    route("admin/mensajes/whatsapp/:phone", "routes/admin.whatsapp-thread.tsx"),
    route("admin/contenido", "routes/admin.content.tsx"),
    route("admin/contenido/ajustes", "routes/admin.content-settings.tsx"),
    route("admin/contenido/textos/:slug", "routes/admin.content-legal.tsx"),
    route("admin/contenido/organizaciones", "routes/admin.content-organizations.tsx"),
    route("admin/contenido/organizaciones/:organizationId", "routes/admin.content-organization.tsx"),
    route("admin/contenido/historia", "routes/admin.content-history.tsx"),
    route("admin/contenido/historia/:entryId", "routes/admin.content-history-entry.tsx"),
    route("admin/reclamos", "routes/admin.complaints.tsx"),
    route("admin/reclamos/:complaintId", "routes/admin.complaint-detail.tsx"),
    route("admin/comprobantes", "routes/admin.comprobantes.tsx"),
    route("admin/suscripciones", "routes/admin.subscriptions.tsx"),
    route("admin/suscripciones/pagos-fallidos", "routes/admin.subscriptions-failed.tsx"),
    route("admin/suscripciones/pronostico", "routes/admin.subscriptions-forecast.tsx"),
    route("admin/suscripciones/:subscriptionId", "routes/admin.subscription-detail.tsx"),
    route("admin/clientes", "routes/admin.customers.tsx"),
    route("admin/clientes/:customerId", "routes/admin.customer-detail.tsx"),
    route("admin/clientes/:customerId/exportar", "routes/admin.customer-export.ts"),
    route("admin/clientes/:customerId/anonimizar", "routes/admin.customer-anonymise.tsx"),
    // Guest buyers without an account, named by one of their orders (decision 0061).
    route("admin/clientes/invitado/:orderId", "routes/admin.guest-detail.tsx"),
    route("admin/clientes/invitado/:orderId/exportar", "routes/admin.guest-export.ts"),
    route("admin/clientes/invitado/:orderId/anonimizar", "routes/admin.guest-anonymise.tsx"),
    // People who never bought, named by one of their rows (decision 0064).
    route("admin/clientes/persona/:reference", "routes/admin.person-detail.tsx"),
    route("admin/clientes/persona/:reference/exportar", "routes/admin.person-export.ts"),
    route("admin/clientes/persona/:reference/anonimizar", "routes/admin.person-anonymise.tsx"),
    route("admin/metricas", "routes/admin.metrics.tsx"),
    route("admin/metricas/exportar", "routes/admin.metrics-export.ts"),
    route("admin/productos", "routes/admin.products.tsx"),
    route("admin/productos/:productId", "routes/admin.product.tsx"),
    route("admin/caja", "routes/admin.caja.tsx"),
    // "¿Te queda agua?" reminders due and sent (decision 0076).
    route("admin/recordatorios", "routes/admin.reminders.tsx"),
  ]),

  // Links "elsewhere" in the spec are permanent aliases (decisions.md, Routes).
  route("productos", "routes/alias-redirect.ts", { id: "alias-productos" }),
  route("terms", "routes/alias-redirect.ts", { id: "alias-terms" }),
  route("privacy", "routes/alias-redirect.ts", { id: "alias-privacy" }),
  route("mi-cuenta/pedidos", "routes/alias-redirect.ts", { id: "alias-orders" }),
  route("mi-cuenta/envios", "routes/alias-redirect.ts", { id: "alias-deliveries" }),
  route("mi-cuenta/envios/:deliveryId", "routes/alias-redirect.ts", { id: "alias-delivery" }),
  route("mi-cuenta/suscripcion", "routes/alias-redirect.ts", { id: "alias-subscription" }),
  route("mi-cuenta/facturas", "routes/alias-redirect.ts", { id: "alias-invoices" }),

  route("api/carrito/precios", "routes/api.cart-prices.ts"),
  route("api/carrito/abandonado", "routes/api.abandoned-cart.ts"),
  route("api/cuenta/correo-registrado", "routes/api.email-registered.ts"),
  // The customer's live tracking of a delivery on its day (issue 26): the order's owner only.
  route("api/envios/:deliveryId/seguimiento", "routes/api.delivery-tracking.ts"),
  route("api/pagos/culqi/webhook", "routes/api.culqi-webhook.ts"),
  // Meta's WhatsApp webhook: subscription check and signed notifications (issue 25, docs/whatsapp.md).
  route("webhooks/whatsapp", "routes/webhooks.whatsapp.ts"),
  // Flow posts the card-registration token here from its own site (decision 0021).
  route("api/pagos/flow/registro", "routes/api.flow-register-return.ts"),

  // Open Graph pictures (decision 0039): /og/inicio.png, /og/tienda.png, /og/producto/{slug}.png.
  route("og/:file", "routes/share-image.ts", { id: "share-image" }),
  route("og/:kind/:file", "routes/share-image.ts", { id: "share-image-kind" }),
  route("sitemap.xml", "routes/sitemap-xml.ts"),
  // Images staff uploaded, content-hashed and cached for good (issue 11).
  route("media/:file", "routes/media-file.ts"),
  route("robots.txt", "routes/robots-txt.ts"),
] satisfies RouteConfig;
