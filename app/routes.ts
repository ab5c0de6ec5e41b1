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
    route("gracias", "routes/gracias.tsx"),
    route("resume-cart", "routes/resume-cart.tsx"),
    route("terminos", "routes/terminos.tsx"),
    route("privacidad", "routes/privacidad.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),

  // Links "elsewhere" in the spec are permanent aliases (decisions.md, Routes).
  route("productos", "routes/alias-redirect.ts", { id: "alias-productos" }),
  route("terms", "routes/alias-redirect.ts", { id: "alias-terms" }),
  route("privacy", "routes/alias-redirect.ts", { id: "alias-privacy" }),

  route("api/carrito/precios", "routes/api.cart-prices.ts"),
  route("api/carrito/abandonado", "routes/api.abandoned-cart.ts"),
  route("api/pagos/culqi/webhook", "routes/api.culqi-webhook.ts"),

  route("sitemap.xml", "routes/sitemap-xml.ts"),
  route("robots.txt", "routes/robots-txt.ts"),
] satisfies RouteConfig;
