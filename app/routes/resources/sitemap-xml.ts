import type { Route } from "./+types/sitemap-xml";
import { listProductSlugs } from "@server/catalog/index.server";
import { dbContext } from "~/server/db-context.server";
import { siteInfo } from "~/server/site-info.server";
import { absoluteUrl } from "~/lib/seo";

/** Indexable pages only: legal pages are noindex (spec §2) and stay out. */
const staticPaths = ["/", "/nosotros", "/tienda", "/contact"];

function escapeXml(value: string) {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const site = await siteInfo(db, request);
  const products = await listProductSlugs(db);
  const entries = [
    ...staticPaths.map((path) => ({ loc: absoluteUrl(site, path), lastmod: null as string | null })),
    ...products.map((product) => ({
      loc: absoluteUrl(site, `/tienda/producto/${product.slug}`),
      lastmod: product.updatedAt.toISOString().slice(0, 10),
    })),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries.map((entry) => `  <url><loc>${escapeXml(entry.loc)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ""}</url>`).join("\n")}
</urlset>
`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
