import sharp from "sharp";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_ADMIN } from "@server/db/seed/demo-credentials";
import { signInCookies, type SessionCookie } from "../support/accounts";
import { seriousAxeViolations } from "../support/axe";
import { DESKTOP, launchBrowser, MOBILE, openPage } from "../support/browser";
import { jsonLd, waitForHydration } from "../support/e2e";
import { startShopServer, type ShopServer } from "../support/shop-server";

/**
 * Issue 11 in the browser: the admin creates a product with a picture at /admin/productos (without
 * JavaScript: the form posts multipart by itself) and it is on /tienda and in the sitemap at once;
 * a second picture joins its gallery, whose thumbnails switch the product page's large picture;
 * a new price corrects a cart that still holds the old one. A server of its own, since it changes
 * the catalogue other browser tests read.
 */
describe("catalogue admin", () => {
  let server: ShopServer;
  let browser: Browser;
  let cookies: SessionCookie[];
  let productPath = "";
  beforeAll(async () => {
    server = await startShopServer({ templates: inject("databaseTemplates") });
    browser = await launchBrowser();
    cookies = await signInCookies(server.baseURL, DEMO_ADMIN.email, DEMO_ADMIN.password);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openAsAdmin(options = DESKTOP) {
    const tracked = await openPage(browser, options);
    await tracked.page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: server.baseURL })));
    return tracked;
  }
  /** Chromium keeps public pages a minute: a new query string asks the server. */
  const fresh = (path: string) => `${server.baseURL}${path}?v=${Math.random().toString(36).slice(2)}`;

  it("creates a product with a picture that shows on /tienda, served for good, and lists it in the sitemap", async () => {
    const { page, errors } = await openAsAdmin({ ...DESKTOP, javaScriptEnabled: false });
    await page.goto(`${server.baseURL}/admin/productos`);
    await page.getByLabel("Nombre").fill("Agua alcalina 3 L");
    await page.getByLabel("Precio (S/)").fill("9.90");
    await page.getByLabel("Orden en la tienda").fill("0");
    const picture = await sharp({ create: { width: 900, height: 900, channels: 3, background: "#0284c7" } })
      .png()
      .toBuffer();
    // An SVG named .png is refused with its message; the typed values stay.
    await page
      .getByLabel("Imagen")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await page.getByRole("button", { name: "Crear producto" }).click();
    await page.getByText("Solo aceptamos imágenes PNG, JPEG o WebP").waitFor();
    expect(await page.getByLabel("Nombre").inputValue()).toBe("Agua alcalina 3 L");

    await page.getByLabel("Imagen").setInputFiles({ name: "botella.png", mimeType: "image/png", buffer: picture });
    await page.getByRole("button", { name: "Crear producto" }).click();
    await page.getByRole("status").filter({ hasText: "Cambios guardados" }).waitFor();
    productPath = new URL(page.url()).pathname;

    const visitor = await openPage(browser, MOBILE);
    await visitor.page.goto(fresh("/tienda"));
    const card = visitor.page.getByTestId("product-card").filter({ hasText: "Agua alcalina 3 L" });
    expect(await card.getByTestId("product-card-price").textContent()).toBe("S/ 9.90");
    const image = card.locator("img");
    const src = (await image.getAttribute("src"))!;
    expect(src).toMatch(/^\/media\/[0-9a-f]{24}-400\.webp$/);
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
    const served = await fetch(`${server.baseURL}${src}`);
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("content-type")).toBe("image/webp");

    const sitemap = await (await fetch(`${server.baseURL}/sitemap.xml`)).text();
    expect(sitemap).toContain(`${server.baseURL}/tienda/producto/agua-alcalina-3-l</loc>`);
    expect([...errors, ...visitor.errors]).toEqual([]);
  });

  it("adds a second picture to the gallery, shown as thumbnails that switch the large one, and makes it the main picture", async () => {
    const { page, errors } = await openAsAdmin({ ...DESKTOP, javaScriptEnabled: false });
    await page.goto(`${server.baseURL}${productPath}`);
    const adding = page.getByRole("form", { name: "Agregar otra imagen" });
    // A GIF is refused with its message under the field; the typed text alternative stays.
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    await adding.getByLabel("Nueva imagen").setInputFiles({ name: "etiqueta.png", mimeType: "image/png", buffer: gif });
    await adding.getByLabel("Texto alternativo (opcional)").fill("Etiqueta de la botella");
    await adding.getByRole("button", { name: "Agregar imagen" }).click();
    await adding.getByText("Solo aceptamos imágenes PNG, JPEG o WebP").waitFor();
    expect(await adding.getByLabel("Texto alternativo (opcional)").inputValue()).toBe("Etiqueta de la botella");
    const label = await sharp({ create: { width: 600, height: 800, channels: 3, background: "#16a34a" } })
      .jpeg()
      .toBuffer();
    await adding.getByLabel("Nueva imagen").setInputFiles({ name: "etiqueta.jpg", mimeType: "image/jpeg", buffer: label });
    await adding.getByRole("button", { name: "Agregar imagen" }).click();
    await page.getByRole("status").filter({ hasText: "Cambios guardados" }).waitFor();
    const [first, second] = await page
      .getByRole("list")
      .filter({ has: page.getByRole("form", { name: "Imagen 2 de 2" }) })
      .locator("img")
      .evaluateAll((images) => images.map((image) => image.getAttribute("src")!));

    const visitor = await openPage(browser, MOBILE);
    await visitor.page.goto(fresh("/tienda/producto/agua-alcalina-3-l"));
    await waitForHydration(visitor.page);
    const main = visitor.page.locator("main img").first();
    expect(await main.getAttribute("src")).toBe(first);
    const thumbnails = visitor.page.getByRole("list", { name: "Imágenes del producto" }).getByRole("link");
    expect(await thumbnails.count()).toBe(2);
    await visitor.page.getByRole("link", { name: "Ver imagen 2 de 2: Etiqueta de la botella" }).click();
    await expect.poll(() => main.getAttribute("src")).toBe(second);
    expect(await main.getAttribute("alt")).toBe("Etiqueta de la botella");
    expect(new URL(visitor.page.url()).searchParams.get("imagen")).toBe("2");

    await page.getByRole("button", { name: "Hacer principal la imagen 2" }).click();
    await page.getByRole("status").filter({ hasText: "Cambios guardados" }).waitFor();
    await visitor.page.goto(fresh("/tienda/producto/agua-alcalina-3-l"));
    expect(await main.getAttribute("src")).toBe(second);
    const product = (await jsonLd(visitor.page)).find((block) => block["@type"] === "Product");
    expect(product?.image).toEqual([`${server.baseURL}${second}`, `${server.baseURL}${first}`]);
    expect([...errors, ...visitor.errors]).toEqual([]);
  });

  it("corrects a cart holding the old price after the admin changes it, and the old slug redirects", async () => {
    const productId = Number(productPath.split("/").at(-1));
    const shopper = await openPage(browser, MOBILE);
    await shopper.page.goto(`${server.baseURL}/tienda`);
    await shopper.page.evaluate(
      (stored) => window.localStorage.setItem("va-cart:v1", JSON.stringify(stored)),
      [
        {
          key: String(productId),
          productId,
          variantId: null,
          slug: "agua-alcalina-3-l",
          title: "Agua alcalina 3 L",
          image: null,
          price: 990,
          variantTitle: null,
          quantity: 6,
        },
      ],
    );

    const { page, errors } = await openAsAdmin();
    await page.goto(`${server.baseURL}${productPath}`);
    await page.getByLabel("Precio (S/)", { exact: true }).first().fill("12,50");
    await page.getByLabel("Dirección (slug)").fill("agua-alcalina-tres-litros");
    await page.getByRole("button", { name: "Guardar producto" }).click();
    await page.getByRole("status").filter({ hasText: "Cambios guardados" }).waitFor();

    await shopper.page.goto(`${server.baseURL}/carrito`);
    await waitForHydration(shopper.page);
    await shopper.page.getByTestId("cart-notes").getByText("El precio de Agua alcalina 3 L cambió de S/ 9.90 a S/ 12.50.").waitFor();
    expect(await shopper.page.getByTestId("cart-line-price").textContent()).toBe("S/ 12.50");

    const old = await fetch(`${server.baseURL}/tienda/producto/agua-alcalina-3-l`, { redirect: "manual" });
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe("/tienda/producto/agua-alcalina-tres-litros");
    expect([...errors, ...shopper.errors]).toEqual([]);
  });

  it("uploads an organisation's logo through the same checks, shown on /nosotros", async () => {
    const { page, errors } = await openAsAdmin();
    await page.goto(`${server.baseURL}/admin/contenido/organizaciones/1`);
    const logo = await sharp({ create: { width: 960, height: 640, channels: 3, background: "#16a34a" } })
      .jpeg()
      .toBuffer();
    await page.getByLabel("Subir logo").setInputFiles({ name: "logo.jpg", mimeType: "image/jpeg", buffer: logo });
    await page.getByRole("button", { name: "Guardar cambios" }).click();
    await page.getByRole("status").filter({ hasText: "Organización guardada" }).waitFor();

    const visitor = await openPage(browser);
    await visitor.page.goto(fresh("/nosotros"));
    const sources = await visitor.page
      .getByTestId("organization-cards")
      .locator("img")
      .evaluateAll((images) => images.map((image) => image.getAttribute("src")));
    expect(sources.some((src) => /^\/media\/[0-9a-f]{24}-800\.webp$/.test(src ?? ""))).toBe(true);
    expect([...errors, ...visitor.errors]).toEqual([]);
  });

  it("has no serious accessibility problem and no sideways scroll on the catalogue pages, on a desktop and at 360 px", async () => {
    for (const options of [DESKTOP, { ...MOBILE, viewport: { width: 360, height: 780 } }]) {
      const { page, errors } = await openAsAdmin(options);
      // The edited product's gallery (two pictures) in the back office and on its page.
      for (const path of ["/admin/productos", productPath, "/admin/contenido/organizaciones/1", "/tienda/producto/agua-alcalina-tres-litros?imagen=2"]) {
        await page.goto(`${server.baseURL}${path}`);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        expect(await seriousAxeViolations(page, path)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${path} at ${options.viewport?.width}px`).toBe(true);
      }
      expect(errors).toEqual([]);
    }
  });
});
