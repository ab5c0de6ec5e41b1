import { redirect } from "react-router";
import type { Route } from "./+types/alias-redirect";

/** decisions.md: the spec's links "elsewhere" answer with a permanent redirect, query string kept. */
const aliases: Record<string, string> = {
  "/productos": "/tienda",
  "/terms": "/terminos",
  "/privacy": "/privacidad",
};

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const target = aliases[url.pathname.replace(/\/+$/, "")];
  if (!target) throw new Response("Not Found", { status: 404 });
  return redirect(`${target}${url.search}`, 301);
}
