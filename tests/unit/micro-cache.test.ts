import { afterEach, describe, expect, it, vi } from "vitest";
import { createMicroCache, SHARED_PAGE_HEADER } from "../../scripts/micro-cache.mjs";

function page(body: string, cacheControl: string | null, init: { status?: number; setCookie?: boolean } = {}) {
  const headers = new Headers({ "content-type": "text/html" });
  if (cacheControl) headers.set("cache-control", cacheControl);
  if (init.setCookie) headers.set("set-cookie", "a=b");
  return new Response(body, { status: init.status ?? 200, headers });
}

describe("page micro-cache", () => {
  afterEach(() => vi.useRealTimers());

  it("serves a public page from memory until it expires", async () => {
    vi.useFakeTimers();
    const cache = createMicroCache({ seconds: 10 });
    let renders = 0;
    const render = async () => page(`render ${++renders}`, "public, max-age=60");
    const get = () => cache.serve(new Request("http://shop.test/tienda"), render);
    expect(await (await get()).text()).toBe("render 1");
    expect(await (await get()).text()).toBe("render 1");
    vi.advanceTimersByTime(10_001);
    expect(await (await get()).text()).toBe("render 2");
  });

  it("never replays a page stored under an older storefront generation (decision 0040), awaiting the generation when it is a promise", async () => {
    let generation = 1;
    const cache = createMicroCache({ seconds: 10, generation: () => (generation === 3 ? Promise.resolve(generation) : generation) });
    let renders = 0;
    const get = async () => (await cache.serve(new Request("http://shop.test/"), async () => page(`render ${++renders}`, "public, max-age=60"))).text();
    expect([await get(), await get()]).toEqual(["render 1", "render 1"]);
    generation = 2;
    expect([await get(), await get()]).toEqual(["render 2", "render 2"]);
    generation = 3;
    expect([await get(), await get()]).toEqual(["render 3", "render 3"]);
  });

  it("never stores private pages, errors, responses that set cookies, or requests that carry cookies", async () => {
    const cache = createMicroCache({ seconds: 10 });
    let renders = 0;
    const cases: [Request, () => Response][] = [
      [new Request("http://shop.test/checkout"), () => page("x", null)],
      [new Request("http://shop.test/privado"), () => page("x", "private, max-age=60")],
      [new Request("http://shop.test/no-existe"), () => page("x", "public, max-age=60", { status: 404 })],
      [new Request("http://shop.test/login"), () => page("x", "public, max-age=60", { setCookie: true })],
      [new Request("http://shop.test/tienda", { headers: { cookie: "session=1" } }), () => page("x", "public, max-age=60")],
      [new Request("http://shop.test/tienda", { method: "POST", body: "a" }), () => page("x", "public, max-age=60")],
    ];
    for (const [request, response] of cases) {
      for (let i = 0; i < 2; i++) await cache.serve(request.clone(), async () => (renders++, response()));
    }
    expect(renders).toBe(cases.length * 2);
  });

  it("serves a stored page to a visitor with cookies, marked private for them, unless the page varies by cookie", async () => {
    const cache = createMicroCache({ seconds: 10 });
    let renders = 0;
    const render = (vary: string | null) => async () => {
      const response = page(`render ${++renders}`, "public, max-age=60");
      if (vary) response.headers.set("vary", vary);
      return response;
    };
    const withCookie = (path: string) => new Request(`http://shop.test${path}`, { headers: { cookie: "va.session_token=abc" } });

    await cache.serve(new Request("http://shop.test/tienda"), render(null));
    const shared = await cache.serve(withCookie("/tienda"), render(null));
    expect(await shared.text()).toBe("render 1");
    expect(shared.headers.get("cache-control")).toBe("private, no-store");
    // The anonymous visitor still gets the public page.
    expect((await cache.serve(new Request("http://shop.test/tienda"), render(null))).headers.get("cache-control")).toBe("public, max-age=60");

    await cache.serve(new Request("http://shop.test/nosotros"), render("Accept-Encoding, Cookie"));
    expect(await (await cache.serve(withCookie("/nosotros"), render(null))).text()).toBe("render 3");
    // Nothing stored yet for this URL: a visitor with cookies gets their own render.
    expect(await (await cache.serve(withCookie("/tienda/producto/a"), render(null))).text()).toBe("render 4");
  });

  it("fills the cache for visitors with cookies from an anonymous render, once the page showed it is the same for everyone", async () => {
    const cache = createMicroCache({ seconds: 10 });
    const seen: { cookie: string | null; path: string }[] = [];
    const render = async (request: Request) => {
      const path = new URL(request.url).pathname;
      seen.push({ cookie: request.headers.get("cookie"), path });
      const signedIn = Boolean(request.headers.get("cookie"));
      if (path === "/dashboard") return page(`private ${seen.length}`, "private, no-store");
      // What app/server/cache-control.server.ts answers for a public route to a signed-in visitor.
      const response = page(signedIn ? `for the customer ${seen.length}` : `anonymous ${seen.length}`, signedIn ? "private, no-store" : "public, max-age=60");
      if (signedIn) response.headers.set(SHARED_PAGE_HEADER, "1");
      return response;
    };
    const withCookie = (path: string) => new Request(`http://shop.test${path}`, { headers: { cookie: "va.session_token=abc" } });

    // The first signed-in visit renders the visitor's own page and learns the route is public.
    expect(await (await cache.serve(withCookie("/tienda"), render)).text()).toBe("for the customer 1");
    // The next one is served from an anonymous render (no cookie reached the route), which is stored.
    const second = await cache.serve(withCookie("/tienda"), render);
    expect(await second.text()).toBe("anonymous 2");
    expect(second.headers.get("cache-control")).toBe("private, no-store");
    expect(seen[1]).toEqual({ cookie: null, path: "/tienda" });
    expect(await (await cache.serve(withCookie("/tienda"), render)).text()).toBe("anonymous 2");
    expect(await (await cache.serve(new Request("http://shop.test/tienda"), render)).text()).toBe("anonymous 2");
    expect(seen).toHaveLength(2);

    // Concurrent signed-in visitors after expiry share one anonymous render.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10_001);
    const bodies = await Promise.all([1, 2, 3].map(async () => (await cache.serve(withCookie("/tienda"), render)).text()));
    expect(bodies).toEqual(["anonymous 3", "anonymous 3", "anonymous 3"]);

    // A private page is never rendered anonymously, and never stored.
    for (let i = 0; i < 2; i++) await cache.serve(withCookie("/dashboard"), render);
    expect(seen.filter((entry) => entry.path === "/dashboard").every((entry) => entry.cookie === "va.session_token=abc")).toBe(true);
    expect(seen.filter((entry) => entry.path === "/dashboard")).toHaveLength(2);
  });

  it("keeps pages apart by full URL and does nothing when turned off", async () => {
    const cache = createMicroCache({ seconds: 10 });
    const render = (body: string) => async () => page(body, "public, max-age=60");
    await cache.serve(new Request("http://shop.test/tienda/producto/a"), render("a"));
    expect(await (await cache.serve(new Request("http://shop.test/tienda/producto/a?variante=2"), render("a2"))).text()).toBe("a2");
    const off = createMicroCache({ seconds: 0 });
    await off.serve(new Request("http://shop.test/"), render("one"));
    expect(await (await off.serve(new Request("http://shop.test/"), render("two"))).text()).toBe("two");
  });

  it("never stores a page marked private or no-store even if it also says public", async () => {
    const cache = createMicroCache({ seconds: 10 });
    let renders = 0;
    for (const header of ["public, private, max-age=60", "public, no-store, max-age=60"]) {
      const request = () => new Request(`http://shop.test/${encodeURIComponent(header)}`);
      for (let i = 0; i < 2; i++) await cache.serve(request(), async () => (renders++, page("x", header)));
    }
    expect(renders).toBe(4);
  });

  it("gives every hit of a stored page a fresh CSP nonce, in the header and in each script", async () => {
    const cache = createMicroCache({ seconds: 10 });
    const rendered = "a".repeat(32);
    const render = async () => {
      const response = page(`<script nonce="${rendered}">1</script><p>x</p><script nonce="${rendered}">2</script>`, "public, max-age=60");
      response.headers.set("content-security-policy", `script-src 'self' 'nonce-${rendered}'; frame-ancestors 'none'`);
      return response;
    };
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const response = await cache.serve(new Request("http://shop.test/tienda"), render);
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy")!)![1]!;
      const body = await response.text();
      expect(body).toBe(`<script nonce="${nonce}">1</script><p>x</p><script nonce="${nonce}">2</script>`);
      expect(response.headers.get("content-security-policy")).toBe(`script-src 'self' 'nonce-${nonce}'; frame-ancestors 'none'`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(3);
  });
});
