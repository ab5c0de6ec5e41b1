// A few seconds of in-memory caching for pages a route has declared public (Cache-Control:
// public) — what a CDN in front would do, done here so one process can serve a busy storefront
// (bench/RESULTS.md). Pages are stored only from requests without cookies or credentials. A stored
// page is served to a request with cookies too (a signed-in customer browsing the shop) unless the
// route said its page depends on them (`Vary: Cookie`, as /nosotros does for the visitor's vote):
// a page that is the same for everyone is the same whatever cookie comes with the request (issue
// 13). Pages for a signed-in customer, carts, checkouts and receipts never declare `public`, so
// they are never stored.
// When only visitors with cookies ask for such a page (every signed-in customer), nobody would
// ever store it: once a render has shown that a URL's page is public and the same for everyone,
// a visitor with cookies who finds nothing fresh has the page rendered for an anonymous copy of
// the request (no cookies, no credentials), and that copy is stored and served. What is stored
// always comes from a request without cookies, so no visitor's own page is ever kept.
// A stored page's Content-Security-Policy nonce is renewed on every hit, so no two visitors ever
// get the same nonce (docs/security.md).
import { randomBytes } from "node:crypto";

/**
 * Set by app/server/cache-control.server.ts on a page the route declared public but that was made private
 * because the request carried a session: the page is the same for everyone. Never sent to a visitor.
 */
export const SHARED_PAGE_HEADER = "x-shared-page";

/** How long a URL stays known as "the same page for everyone" after a render said so. */
const SHARED_MEMORY_MS = 10 * 60 * 1000;

/**
 * `generation` (decision 0040) names the storefront's current content: a page stored under an older
 * one is never served, so a staff change reaches the stored pages of every process within a second.
 * @param {{ seconds: number, maxEntries?: number, generation?: () => number | Promise<number> }} options
 */
export function createMicroCache({ seconds, maxEntries = 500, generation = () => 0 }) {
  /** @type {Map<string, { expires: number, generation: number, status: number, headers: [string, string][], body: Buffer[], nonce: string | null, variesByCookie: boolean }>} */
  const entries = new Map();
  /** URLs whose page was last seen public and not varying by cookie, until when. @type {Map<string, number>} */
  const shared = new Map();
  /** Anonymous renders under way for visitors with cookies, one per URL. @type {Map<string, Promise<unknown>>} */
  const refreshing = new Map();

  function readable(request) {
    return seconds > 0 && (request.method === "GET" || request.method === "HEAD") && !request.headers.has("authorization");
  }

  function cacheable(request) {
    return readable(request) && !request.headers.has("cookie");
  }

  function publicMaxAge(response) {
    const header = response.headers.get("cache-control") ?? "";
    if (response.status !== 200 || !/\bpublic\b/.test(header) || /\b(private|no-store|no-cache)\b/.test(header)) return 0;
    if (response.headers.has("set-cookie")) return 0;
    const maxAge = Number(/max-age=(\d+)/.exec(header)?.[1] ?? 0);
    return Math.min(maxAge, seconds);
  }

  function remember(key, isShared) {
    shared.delete(key);
    if (!isShared) return;
    if (shared.size >= maxEntries) shared.delete(shared.keys().next().value);
    shared.set(key, Date.now() + SHARED_MEMORY_MS);
  }

  /** Stores a public response (the caller checked it is from a request without cookies). */
  async function store(key, response, keepFor, current) {
    const body = Buffer.from(await response.arrayBuffer());
    const headers = [...response.headers.entries()];
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? null;
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value);
    const stored = {
      expires: Date.now() + keepFor * 1000,
      generation: current,
      status: response.status,
      headers,
      body: nonce ? splitAt(body, nonce) : [body],
      nonce,
      variesByCookie: variesByCookie(response),
    };
    entries.set(key, stored);
    remember(key, !stored.variesByCookie);
    return stored;
  }

  /** Renders the anonymous copy of a request and stores it; null when that page may not be stored. */
  async function refresh(key, request, render, current) {
    const response = await render(anonymousCopy(request));
    const keepFor = publicMaxAge(response);
    if (keepFor <= 0) {
      await response.body?.cancel();
      remember(key, false);
      return null;
    }
    return store(key, response, keepFor, current);
  }

  return {
    /**
     * @param {Request} request
     * @param {(request: Request) => Promise<Response>} render
     */
    async serve(request, render) {
      if (!readable(request)) return render(request);
      const key = `${request.method} ${request.url}`;
      // Read before rendering: a page rendered while content changes is stored under the older number.
      const current = await generation();
      const hit = entries.get(key);
      const fresh = hit && hit.expires > Date.now() && hit.generation === current;
      if (!cacheable(request)) {
        // With cookies: only a stored page that does not vary by them, marked private for this visitor.
        if (fresh && !hit.variesByCookie) return replay(request, hit, hit.nonce && randomBytes(16).toString("hex"), PRIVATE);
        if ((shared.get(key) ?? 0) > Date.now()) {
          let pending = refreshing.get(key);
          if (!pending) {
            pending = refresh(key, request, render, current).finally(() => refreshing.delete(key));
            refreshing.set(key, pending);
          }
          const stored = await pending.catch(() => null);
          if (stored && !stored.variesByCookie) return replay(request, stored, stored.nonce && randomBytes(16).toString("hex"), PRIVATE);
        }
        const response = await render(request);
        if (response.status === 200 && !variesByCookie(response) && (response.headers.has(SHARED_PAGE_HEADER) || publicMaxAge(response) > 0))
          remember(key, true);
        return response;
      }
      if (fresh) return replay(request, hit, hit.nonce && randomBytes(16).toString("hex"));
      const response = await render(request);
      const keepFor = publicMaxAge(response);
      if (keepFor <= 0) return response;
      const stored = await store(key, response, keepFor, current);
      return replay(request, stored, stored.nonce);
    },
  };
}

function variesByCookie(response) {
  return /(^|,)\s*(cookie|\*)\s*(,|$)/i.test(response.headers.get("vary") ?? "");
}

/** The same request as a visitor without cookies or credentials would send it. */
function anonymousCopy(request) {
  const headers = new Headers(request.headers);
  headers.delete("cookie");
  headers.delete("authorization");
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

/** The body cut around every occurrence of `nonce`, so a hit can put a fresh one in its place. */
function splitAt(body, nonce) {
  const parts = [];
  let start = 0;
  for (let at = body.indexOf(nonce, start); at !== -1; at = body.indexOf(nonce, start)) {
    parts.push(body.subarray(start, at));
    start = at + nonce.length;
  }
  parts.push(body.subarray(start));
  return parts;
}

/** What a visitor with cookies gets as Cache-Control (app/server/cache-control.server.ts says the same for signed-in pages). */
const PRIVATE = "private, no-store";

function replay(request, stored, nonce, cacheControl) {
  const joint = Buffer.from(nonce ?? "");
  const body = stored.body.length === 1 ? stored.body[0] : Buffer.concat(stored.body.flatMap((part, index) => (index === 0 ? [part] : [joint, part])));
  const headers = stored.headers.map(([name, value]) => {
    if (name === "content-security-policy" && nonce) return [name, value.split(stored.nonce).join(nonce)];
    if (name === "cache-control" && cacheControl) return [name, cacheControl];
    return [name, value];
  });
  return new Response(request.method === "HEAD" ? null : body, { status: stored.status, headers });
}
