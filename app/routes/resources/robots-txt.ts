import type { Route } from "./+types/robots-txt";
import { dbContext } from "~/server/db-context.server";
import { siteInfo } from "~/server/site-info.server";
import { absoluteUrl } from "~/lib/seo";

/** Private and transactional pages are kept out of search engines. */
const disallowed = [
  "/api/",
  "/pago/",
  "/carrito",
  "/checkout",
  "/dashboard",
  "/mi-cuenta",
  "/orden/",
  "/success",
  "/pago-error",
  "/resume-cart",
  "/reset-password",
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const site = await siteInfo(context.get(dbContext), request);
  const body = ["User-agent: *", "Allow: /", ...disallowed.map((path) => `Disallow: ${path}`), "", `Sitemap: ${absoluteUrl(site, "/sitemap.xml")}`, ""].join(
    "\n",
  );
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
