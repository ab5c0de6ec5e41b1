// A few seconds of in-memory caching for pages a route has declared public (Cache-Control:
// public) — what a CDN in front would do, done here so one process can serve a busy storefront
// (bench/RESULTS.md). Pages are stored only from requests without cookies or credentials. A stored
// page is served to a request with cookies too (a signed-in customer browsing the shop) unless the
// route said its page depends on them (`Vary: Cookie`, as /nosotros does for the visitor's vote):
// a page that is the same for everyone is the same whatever cookie comes with the request (issue
// 13). Pages for a signed-in customer, carts, checkouts and receipts never declare `public`, so
// they are never stored.
// A stored page's Content-Security-Policy nonce is renewed on every hit, so no two visitors ever
// get the same nonce (docs/security.md).
import { randomBytes } from "node:crypto";

/**
 * `generation` (decision 0040) names the storefront's current content: a page stored under an older
 * one is never served, so a staff change reaches the stored pages of every process within a second.
 * @param {{ seconds: number, maxEntries?: number, generation?: () => number | Promise<number> }} options
 */
export function createMicroCache({ seconds, maxEntries = 500, generation = () => 0 }) {
  /** @type {Map<string, { expires: number, generation: number, status: number, headers: [string, string][], body: Buffer[], nonce: string | null, variesByCookie: boolean }>} */
  const entries = new Map();

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

  return {
    /**
     * @param {Request} request
     * @param {() => Promise<Response>} render
     */
    async serve(request, render) {
      if (!readable(request)) return render();
      const key = `${request.method} ${request.url}`;
      // Read before rendering: a page rendered while content changes is stored under the older number.
      const current = await generation();
      const hit = entries.get(key);
      const fresh = hit && hit.expires > Date.now() && hit.generation === current;
      if (!cacheable(request)) {
        // With cookies: only a stored page that does not vary by them, marked private for this visitor.
        return fresh && !hit.variesByCookie ? replay(request, hit, hit.nonce && randomBytes(16).toString("hex"), PRIVATE) : render();
      }
      if (fresh) return replay(request, hit, hit.nonce && randomBytes(16).toString("hex"));
      const response = await render();
      const keepFor = publicMaxAge(response);
      if (keepFor <= 0) return response;
      const body = Buffer.from(await response.arrayBuffer());
      const headers = [...response.headers.entries()];
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? null;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value);
      const variesByCookie = /(^|,)\s*(cookie|\*)\s*(,|$)/i.test(response.headers.get("vary") ?? "");
      const stored = {
        expires: Date.now() + keepFor * 1000,
        generation: current,
        status: response.status,
        headers,
        body: nonce ? splitAt(body, nonce) : [body],
        nonce,
        variesByCookie,
      };
      entries.set(key, stored);
      return replay(request, stored, nonce);
    },
  };
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

/** What a visitor with cookies gets as Cache-Control (app/cache-control.server.ts says the same for signed-in pages). */
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
