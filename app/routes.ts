import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  layout("routes/storefront/layout.tsx", [
    index("routes/storefront/home.tsx"),
    route("nosotros", "routes/storefront/nosotros.tsx"),
    route("tienda", "routes/storefront/tienda.tsx"),
    route("tienda/producto", "routes/storefront/product-from-state.tsx"),
    route("tienda/producto/:slug", "routes/storefront/product-detail.tsx"),
    route("carrito", "routes/checkout/carrito.tsx"),
    route("checkout", "routes/checkout/checkout.tsx"),
    route("pago/sandbox/:paymentId", "routes/checkout/sandbox-payment.tsx"),
    route("pago/culqi/:paymentId", "routes/checkout/culqi-payment.tsx"),
    route("success", "routes/checkout/success.tsx"),
    route("pago-error", "routes/checkout/pago-error.tsx"),
    route("orden/:orderId", "routes/checkout/order-status.tsx"),
    // Issue 25: the customer picks a new date for a delivery that could not be made.
    route("orden/:orderId/nueva-fecha", "routes/checkout/order-new-date.tsx"),
    route("gracias", "routes/checkout/gracias.tsx"),
    route("suscripcion/tarjeta/:subscriptionId", "routes/checkout/subscription-card.tsx"),
    route("suscripcion/bienvenido", "routes/checkout/subscription-welcome.tsx"),
    route("flow/register-return", "routes/checkout/flow-register-return.tsx"),
    route("resume-cart", "routes/checkout/resume-cart.tsx"),
    // "Repetir pedido" (decision 0076): the order's customer, or the holder of its signed e-mail link.
    route("repetir-pedido/:orderId", "routes/checkout/repeat-order.tsx"),
    route("preferencias-de-correo", "routes/storefront/email-preferences.tsx"),
    // The double opt-in's confirmation page (decision 0072): its GET only shows, its button confirms.
    route("preferencias-de-correo/confirmar", "routes/storefront/email-consent-confirm.tsx"),
    route("terminos", "routes/storefront/terminos.tsx"),
    route("privacidad", "routes/storefront/privacidad.tsx"),
    route("contact", "routes/storefront/contact.tsx"),
    route("libro-de-reclamaciones", "routes/storefront/libro-de-reclamaciones.tsx"),
    route("libro-de-reclamaciones/hoja/:token", "routes/storefront/libro-de-reclamaciones-hoja.tsx"),
    route("*", "routes/storefront/not-found.tsx"),
  ]),

  // Outside any layout (spec §2 route table).
  route("login", "routes/account/login.tsx"),
  route("register", "routes/account/register.tsx"),
  route("forgot-password", "routes/account/forgot-password.tsx"),
  route("reset-password", "routes/account/reset-password.tsx"),
  route("verificar-correo", "routes/account/verify-email.tsx"),
  route("logout", "routes/account/logout.ts"),

  // The account area: every page below needs a session (spec §6).
  layout("routes/account/layout.tsx", [
    route("dashboard", "routes/account/dashboard.tsx"),
    route("dashboard/pedidos", "routes/account/orders.tsx"),
    route("dashboard/pedidos/:orderId", "routes/account/order-detail.tsx"),
    // Issue 39: a guest order's owner adds it from its confirmation e-mail (its GET shows, its button adds).
    route("dashboard/agregar-pedido/:orderId", "routes/account/add-order.tsx"),
    route("dashboard/perfil", "routes/account/profile.tsx"),
    route("dashboard/suscripcion", "routes/account/subscription.tsx"),
    route("dashboard/suscripciones/:subscriptionId", "routes/account/subscription-detail.tsx"),
    route("dashboard/facturas", "routes/account/invoices.tsx"),
    route("dashboard/facturas/:invoiceId", "routes/account/invoice-detail.tsx"),
    route("dashboard/envios", "routes/account/deliveries.tsx"),
    route("dashboard/envios/:deliveryId", "routes/account/delivery-detail.tsx"),
  ]),
  // Files of the account area: same guard, no page around them.
  route("dashboard/facturas/:invoiceId/pdf", "routes/account/invoice-pdf.ts"),
  route("dashboard/facturas/descargar-todas", "routes/account/invoices-archive.ts"),
  // Issue 40: the photo of the bidones at the door, for the order's customer only.
  route("dashboard/envios/:deliveryId/foto", "routes/account/delivery-photo.ts"),
  // The consumer's copy of a complaints-book sheet as PDF (a file, no page around it).
  route("libro-de-reclamaciones/hoja/:token/pdf", "routes/storefront/libro-de-reclamaciones-hoja-pdf.ts"),

  // The staff area (issue 10): the layout admits staff only; each page states its own roles.
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/home.tsx"),
    route("admin/reparto", "routes/admin/reparto/reparto.tsx"),
    // The driver app's queue of taps, sent by the phone (issue 26, decision 0079).
    route("admin/reparto/confirmaciones", "routes/admin/reparto/confirmaciones.ts"),
    // Issue 40: the photos of the bidones at the door, sent by the phone before the tap naming them.
    route("admin/reparto/fotos", "routes/admin/reparto/fotos.ts"),
    route("admin/pedidos/:orderId/cancelar", "routes/admin/orders/cancel-order.tsx"),
    route("admin/pedidos/:orderId/reembolsar", "routes/admin/orders/refund-order.tsx"),
    route("admin/ajustes", "routes/admin/settings/settings.tsx"),
    route("admin/equipo", "routes/admin/settings/team.tsx"),
    route("admin/auditoria", "routes/admin/settings/audit.tsx"),
    route("admin/calendario", "routes/admin/despacho/calendar.tsx"),
    route("admin/distritos", "routes/admin/catalog/districts.tsx"),
    route("admin/distritos/:districtId", "routes/admin/catalog/district.tsx"),
    route("admin/pedidos", "routes/admin/orders/orders.tsx"),
    // Issue 38: the office types in an order given by phone or WhatsApp.
    route("admin/pedidos/nuevo", "routes/admin/orders/new-order.tsx"),
    route("admin/pedidos/exportar", "routes/admin/orders/orders-export.ts"),
    route("admin/pedidos/:orderId", "routes/admin/orders/order-detail.tsx"),
    route("admin/despacho", "routes/admin/despacho/despacho.tsx"),
    route("admin/despacho/hoja", "routes/admin/despacho/hoja.tsx"),
    route("admin/mensajes", "routes/admin/messages/messages.tsx"),
    // Issue 38: one customer's WhatsApp conversation, with free-text replies inside the 24-hour window.
    route("admin/mensajes/whatsapp/:phone", "routes/admin/messages/whatsapp-thread.tsx"),
    route("admin/contenido", "routes/admin/catalog/content/content.tsx"),
    route("admin/contenido/ajustes", "routes/admin/catalog/content/settings.tsx"),
    route("admin/contenido/textos/:slug", "routes/admin/catalog/content/legal.tsx"),
    route("admin/contenido/organizaciones", "routes/admin/catalog/content/organizations.tsx"),
    route("admin/contenido/organizaciones/:organizationId", "routes/admin/catalog/content/organization.tsx"),
    route("admin/contenido/historia", "routes/admin/catalog/content/history.tsx"),
    route("admin/contenido/historia/:entryId", "routes/admin/catalog/content/history-entry.tsx"),
    route("admin/reclamos", "routes/admin/complaints/complaints.tsx"),
    route("admin/reclamos/:complaintId", "routes/admin/complaints/complaint-detail.tsx"),
    route("admin/comprobantes", "routes/admin/finance/comprobantes.tsx"),
    route("admin/suscripciones", "routes/admin/subscriptions/subscriptions.tsx"),
    route("admin/suscripciones/pagos-fallidos", "routes/admin/subscriptions/failed-payments.tsx"),
    route("admin/suscripciones/pronostico", "routes/admin/subscriptions/forecast.tsx"),
    route("admin/suscripciones/:subscriptionId", "routes/admin/subscriptions/subscription-detail.tsx"),
    route("admin/clientes", "routes/admin/customers/customers.tsx"),
    route("admin/clientes/:customerId", "routes/admin/customers/customer-detail.tsx"),
    route("admin/clientes/:customerId/exportar", "routes/admin/customers/customer-export.ts"),
    route("admin/clientes/:customerId/anonimizar", "routes/admin/customers/customer-anonymise.tsx"),
    // Guest buyers without an account, named by one of their orders (decision 0061).
    route("admin/clientes/invitado/:orderId", "routes/admin/customers/guest-detail.tsx"),
    route("admin/clientes/invitado/:orderId/exportar", "routes/admin/customers/guest-export.ts"),
    route("admin/clientes/invitado/:orderId/anonimizar", "routes/admin/customers/guest-anonymise.tsx"),
    // People who never bought, named by one of their rows (decision 0064).
    route("admin/clientes/persona/:reference", "routes/admin/customers/person-detail.tsx"),
    route("admin/clientes/persona/:reference/exportar", "routes/admin/customers/person-export.ts"),
    route("admin/clientes/persona/:reference/anonimizar", "routes/admin/customers/person-anonymise.tsx"),
    route("admin/metricas", "routes/admin/metrics/metrics.tsx"),
    route("admin/metricas/exportar", "routes/admin/metrics/metrics-export.ts"),
    route("admin/productos", "routes/admin/catalog/products.tsx"),
    route("admin/productos/:productId", "routes/admin/catalog/product.tsx"),
    route("admin/caja", "routes/admin/finance/caja.tsx"),
    // "¿Te queda agua?" reminders due and sent (decision 0076).
    route("admin/recordatorios", "routes/admin/orders/reminders.tsx"),
  ]),

  // Links "elsewhere" in the spec are permanent aliases (decisions.md, Routes).
  route("productos", "routes/resources/alias-redirect.ts", { id: "alias-productos" }),
  route("terms", "routes/resources/alias-redirect.ts", { id: "alias-terms" }),
  route("privacy", "routes/resources/alias-redirect.ts", { id: "alias-privacy" }),
  route("mi-cuenta/pedidos", "routes/resources/alias-redirect.ts", { id: "alias-orders" }),
  route("mi-cuenta/envios", "routes/resources/alias-redirect.ts", { id: "alias-deliveries" }),
  route("mi-cuenta/envios/:deliveryId", "routes/resources/alias-redirect.ts", { id: "alias-delivery" }),
  route("mi-cuenta/suscripcion", "routes/resources/alias-redirect.ts", { id: "alias-subscription" }),
  route("mi-cuenta/facturas", "routes/resources/alias-redirect.ts", { id: "alias-invoices" }),

  route("api/carrito/precios", "routes/api/cart-prices.ts"),
  route("api/carrito/abandonado", "routes/api/abandoned-cart.ts"),
  route("api/cuenta/correo-registrado", "routes/api/email-registered.ts"),
  // The customer's live tracking of a delivery on its day (issue 26): the order's owner only.
  route("api/envios/:deliveryId/seguimiento", "routes/api/delivery-tracking.ts"),
  route("api/pagos/culqi/webhook", "routes/api/culqi-webhook.ts"),
  // Meta's WhatsApp webhook: subscription check and signed notifications (issue 25, docs/whatsapp.md).
  route("webhooks/whatsapp", "routes/api/whatsapp-webhook.ts"),
  // Flow posts the card-registration token here from its own site (decision 0021).
  route("api/pagos/flow/registro", "routes/api/flow-register-return.ts"),

  // Open Graph pictures (decision 0039): /og/inicio.png, /og/tienda.png, /og/producto/{slug}.png.
  route("og/:file", "routes/resources/share-image.ts", { id: "share-image" }),
  route("og/:kind/:file", "routes/resources/share-image.ts", { id: "share-image-kind" }),
  route("sitemap.xml", "routes/resources/sitemap-xml.ts"),
  // Images staff uploaded, content-hashed and cached for good (issue 11).
  route("media/:file", "routes/resources/media-file.ts"),
  route("robots.txt", "routes/resources/robots-txt.ts"),
] satisfies RouteConfig;
