import { request as httpRequest } from "node:http";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cookieHeader, DEMO_CUSTOMER, openSignedIn, signInCookies, type SessionCookie } from "../support/accounts";
import { boxLine, guestCheckoutBody } from "../support/checkout-page";
import { useBrowser, waitForEmail } from "../support/e2e";
import { startShopServer, type ShopServer } from "../support/shop-server";

/** Issue 9 and docs/security.md: the headers, caching and link rules of the real production server. */
describe("security headers, private caching and emailed links", () => {
  const shop = useBrowser();
  let customer: SessionCookie[];
  beforeAll(async () => {
    customer = await signInCookies(shop.baseURL(), DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  });

  const get = (path: string, cookies?: SessionCookie[]) =>
    fetch(`${shop.baseURL()}${path}`, { headers: cookies ? { Cookie: cookieHeader(cookies) } : {}, redirect: "manual" });

  it("sends the security headers on pages, files, API answers and the 404 page", async () => {
    const home = await get("/");
    const script = /"(\/assets\/[^"]+\.js)"/.exec(await home.text())?.[1];
    expect(script).toBeDefined();
    const responses = {
      home,
      script: await get(script!),
      image: await get("/favicon.svg"),
      api: await fetch(`${shop.baseURL()}/api/carrito/precios`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ items: [] }),
      }),
      notFound: await get("/esta-pagina-no-existe"),
    };
    expect(responses.notFound.status).toBe(404);
    for (const [name, response] of Object.entries(responses)) {
      const headers = Object.fromEntries(
        ["x-content-type-options", "referrer-policy", "x-frame-options", "permissions-policy", "content-security-policy", "strict-transport-security"].map(
          (header) => [header, response.headers.get(header)],
        ),
      );
      expect(headers, name).toMatchObject({
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "x-frame-options": "DENY",
        "strict-transport-security": null,
      });
      expect(headers["permissions-policy"], name).toContain("camera=()");
      expect(headers["content-security-policy"], name).toContain("frame-ancestors 'none'");
    }
    // Without Culqi configured the pages need nothing from another origin.
    const policy = home.headers.get("content-security-policy")!;
    expect(policy).toMatch(/script-src 'self' 'nonce-[0-9a-f]{32}'(;|$)/);
    expect(policy).toContain("frame-src 'none'");
    expect(policy).not.toContain("culqi");
  });

  it("sends the pages' security headers on /healthz and /readyz too, with the strict default policy", async () => {
    const page = await get("/");
    const shared = ["x-content-type-options", "referrer-policy", "x-frame-options", "permissions-policy", "strict-transport-security"];
    for (const path of ["/healthz", "/readyz"]) {
      const probe = await get(path);
      expect(probe.status, path).toBe(200);
      for (const header of shared) expect(probe.headers.get(header), `${path} ${header}`).toBe(page.headers.get(header));
      // Not a document: nothing may load from it, nothing may frame it.
      expect(probe.headers.get("content-security-policy"), path).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    }
  });

  it("gives every document its own nonce, carried by each inline script, also when the page cache answers", async () => {
    const nonces = new Set<string>();
    for (let visit = 0; visit < 2; visit++) {
      const response = await get("/tienda");
      const nonce = /'nonce-([0-9a-f]{32})'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce).toBeDefined();
      const scripts = [...(await response.text()).matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]!);
      const executable = scripts.filter((attributes) => !attributes.includes('type="application/ld+json"'));
      expect(executable.length).toBeGreaterThan(2);
      for (const attributes of executable) expect(attributes).toContain(`nonce="${nonce}"`);
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(2);
  });

  it("shows the key pages in Chromium without a single Content-Security-Policy violation", async () => {
    const { page, expectClean, close } = await openSignedIn(shop, customer);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const violations: string[] = [];
    for (const path of ["/", "/nosotros", "/tienda/producto/caja-20l-con-dispensador", "/checkout", "/dashboard"]) {
      if (path === "/checkout") await page.evaluate((line) => window.localStorage.setItem("va-cart:v1", JSON.stringify([line])), boxLine);
      await page.goto(`${shop.baseURL()}${path}`);
      await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
      violations.push(...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)));
    }
    // A client-side navigation loads route modules after hydration: still within the policy.
    await page.getByRole("link", { name: "Mis pedidos" }).first().click();
    await page.waitForURL(/\/dashboard\/pedidos/);
    violations.push(...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)));
    expect(violations).toEqual([]);
    expectClean();
    await close();
  });

  it("keeps a signed-in customer's pages, /checkout and the sandbox payment page out of every cache", async () => {
    for (const path of ["/dashboard", "/checkout", "/tienda", "/nosotros"]) {
      expect((await get(path, customer)).headers.get("cache-control"), path).toBe("private, no-store");
    }
    expect((await get("/checkout")).headers.get("cache-control")).toBe("private, no-store");
    const placed = await placeGuestOrder(shop.baseURL());
    expect(placed.location).toMatch(/^\/pago\/sandbox\//);
    expect((await get(placed.location)).headers.get("cache-control")).toBe("private, no-store");
    // Anonymous visitors' public pages stay cacheable, the cart's frame too (its lines are the browser's).
    expect((await get("/tienda")).headers.get("cache-control")).toContain("public");
    expect((await get("/carrito")).headers.get("cache-control")).toContain("public");
    expect((await get("/carrito", customer)).headers.get("cache-control")).toBe("private, no-store");
  });

  it("never lets the page cache hand a signed-in page, or the checkout's personal data, to someone else", async () => {
    const signedIn = await (await get("/nosotros", customer)).text();
    expect(signedIn).not.toContain("Inicia sesión para votar");
    const checkout = await (await get("/checkout", customer)).text();
    expect(checkout).toContain("45678912");
    for (let visit = 0; visit < 2; visit++) {
      expect(await (await get("/nosotros")).text()).toContain("Inicia sesión para votar");
      expect(await (await get("/checkout")).text()).not.toContain("45678912");
    }
  });

  describe("a server started without SITE_URL (development)", () => {
    let server: ShopServer;
    beforeAll(async () => {
      server = await startShopServer({
        seed: false,
        templates: inject("databaseTemplates"),
        env: { NODE_ENV: "development", SITE_URL: "", SESSION_SECRET: "", ALLOW_SANDBOX_PAYMENTS: "", SEED_BASE_DATA: "true", TRUST_PROXY: "true" },
      });
    });
    afterAll(() => server?.stop());

    it("links the order e-mail to its own address, never to the Host a request claims", async () => {
      const port = new URL(server.baseURL).port;
      const evil = { Host: "evil.example", Origin: "http://evil.example" };
      const placed = await placeGuestOrder(server.baseURL, evil);
      expect(placed.location).toMatch(/^\/pago\/sandbox\//);
      const paid = await rawRequest(server.baseURL, placed.location, {
        method: "POST",
        headers: { ...evil, "Content-Type": "application/x-www-form-urlencoded" },
        body: "intent=approve_card",
      });
      expect(paid.status).toBe(302);
      const email = await waitForEmail(server.outboxDir, (candidate) => candidate.kind === "order-confirmation" && candidate.to === placed.email);
      expect(email.text).toContain(`http://localhost:${port}/orden/`);
      expect(email.text).not.toContain("evil.example");
    });

    it("sends HSTS when a trusted proxy says the request came over https, and not otherwise", async () => {
      const direct = await fetch(`${server.baseURL}/robots.txt`);
      expect(direct.headers.get("strict-transport-security")).toBeNull();
      const proxied = await fetch(`${server.baseURL}/robots.txt`, { headers: { "X-Forwarded-Proto": "https" } });
      expect(proxied.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    });
  });
});

/** A guest's one-time order through the real /checkout action; answers where it sends the browser. */
async function placeGuestOrder(baseURL: string, headers: Record<string, string> = { Origin: baseURL }) {
  const email = `seguridad-${randomUUID().slice(0, 8)}@prueba.pe`;
  const body = guestCheckoutBody(email);
  const response = await rawRequest(baseURL, "/checkout", { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body });
  if (response.status !== 302) throw new Error(`Checkout answered ${response.status}: ${response.body.slice(0, 300)}`);
  return { email, location: response.headers.location! };
}

/** node:http, because fetch will not send a Host header of the test's choosing. */
function rawRequest(baseURL: string, path: string, init: { method: string; headers: Record<string, string>; body: string }) {
  const url = new URL(path, baseURL);
  return new Promise<{ status: number; headers: Record<string, string | undefined>; body: string }>((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: init.method,
        headers: { ...init.headers, "Content-Length": Buffer.byteLength(init.body) },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string | undefined>, body }));
      },
    );
    request.on("error", reject);
    request.end(init.body);
  });
}
