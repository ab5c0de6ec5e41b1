import { redirect } from "react-router";
import type { Route } from "./+types/alias-redirect";

/** decisions.md: the spec's links "elsewhere" answer with a permanent redirect, query string kept. */
const aliases: Record<string, string> = {
  "/productos": "/tienda",
  "/terms": "/terminos",
  "/privacy": "/privacidad",
  "/mi-cuenta/pedidos": "/dashboard/pedidos",
  "/mi-cuenta/envios": "/dashboard/envios",
  "/mi-cuenta/suscripcion": "/dashboard/suscripcion",
  "/mi-cuenta/facturas": "/dashboard/facturas",
};

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/+$/, "");
  const delivery = /^\/mi-cuenta\/envios\/([^/]+)$/.exec(path);
  const target = delivery ? `/dashboard/envios/${delivery[1]}` : aliases[path];
  if (!target) throw new Response("Not Found", { status: 404 });
  return redirect(`${target}${url.search}`, 301);
}
