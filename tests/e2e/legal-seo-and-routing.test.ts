import { describe, expect, it } from "vitest";
import { expectPageError, NOT_FOUND_DOCUMENT } from "../support/browser";
import { metaContent, useBrowser } from "../support/e2e";

describe("legal pages, aliases, 404, sitemap and robots", () => {
  const shop = useBrowser();

  for (const [path, title] of [
    ["/terminos", "Términos y Condiciones"],
    ["/privacidad", "Política de Privacidad"],
  ] as const) {
    it(`serves ${path} from the database, dated and kept out of search results`, async () => {
      const { page, expectClean, close } = await shop.open();
      await page.goto(`${shop.baseURL()}${path}`);
      expect(await page.locator("h1").textContent()).toBe(title);
      expect(await page.getByText("Última actualización: 15 de agosto de 2025").count()).toBe(1);
      expect(await page.locator("main h2").count()).toBeGreaterThan(5);
      expect(await page.locator("main script").count()).toBe(0);
      expect(await metaContent(page, 'meta[name="robots"]')).toBe("noindex,follow");
      expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${shop.baseURL()}${path}`);
      expectClean();
      await close();
    });
  }

  it("redirects the spec's other links permanently, keeping the query string", async () => {
    for (const [from, to] of [
      ["/productos?utm_source=x", "/tienda?utm_source=x"],
      ["/terms", "/terminos"],
      ["/privacy?a=1&b=2", "/privacidad?a=1&b=2"],
    ]) {
      const response = await fetch(`${shop.baseURL()}${from}`, { redirect: "manual" });
      expect(response.status, from).toBe(301);
      expect(response.headers.get("location"), from).toBe(to);
    }
  });

  it("answers an unknown address with a Spanish 404 page inside the layout", async () => {
    const { page, close } = await shop.open();
    expectPageError(NOT_FOUND_DOCUMENT);
    const response = await page.goto(`${shop.baseURL()}/esta-pagina-no-existe`);
    expect(response?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Página no encontrada");
    expect(await metaContent(page, 'meta[name="robots"]')).toBe("noindex,follow");
    expect(await page.getByRole("link", { name: "Ver productos" }).getAttribute("href")).toBe("/tienda");
    expect(await page.locator("footer").getByText("¿A dónde llegamos?").count()).toBe(1);
    await close();
  });

  it("publishes a sitemap of the indexable pages and every product, and a robots.txt pointing to it", async () => {
    const sitemap = await fetch(`${shop.baseURL()}/sitemap.xml`);
    expect(sitemap.headers.get("content-type")).toContain("application/xml");
    const xml = await sitemap.text();
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
    expect(locations.slice(0, 3)).toEqual(["/", "/nosotros", "/tienda"]);
    expect(locations).toContain("/tienda/producto/caja-20l-con-dispensador");
    expect(locations).toContain("/contact");
    expect(locations).toHaveLength(10);
    expect(locations).not.toContain("/terminos");

    const robots = await (await fetch(`${shop.baseURL()}/robots.txt`)).text();
    expect(robots).toContain("User-agent: *");
    expect(robots).toContain("Disallow: /checkout");
    expect(robots).toContain(`Sitemap: ${shop.baseURL()}/sitemap.xml`);
  });
});
