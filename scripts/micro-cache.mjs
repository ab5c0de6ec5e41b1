// A few seconds of in-memory caching for pages a route has declared public (Cache-Control:
// public), served only to requests without cookies or credentials — what a CDN in front would do,
// done here so one process can serve a busy storefront (bench/RESULTS.md). Pages for a signed-in
// customer, carts, checkouts and receipts never declare `public`, so they are never stored.

/** @param {{ seconds: number, maxEntries?: number }} options */
export function createMicroCache({ seconds, maxEntries = 500 }) {
  /** @type {Map<string, { expires: number, status: number, headers: [string, string][], body: Uint8Array }>} */
  const entries = new Map();

  function cacheable(request) {
    return (
      seconds > 0 &&
      (request.method === "GET" || request.method === "HEAD") &&
      !request.headers.has("cookie") &&
      !request.headers.has("authorization")
    );
  }

  function publicMaxAge(response) {
    const header = response.headers.get("cache-control") ?? "";
    if (response.status !== 200 || !/\bpublic\b/.test(header) || response.headers.has("set-cookie")) return 0;
    const maxAge = Number(/max-age=(\d+)/.exec(header)?.[1] ?? 0);
    return Math.min(maxAge, seconds);
  }

  return {
    /**
     * @param {Request} request
     * @param {() => Promise<Response>} render
     */
    async serve(request, render) {
      if (!cacheable(request)) return render();
      const key = `${request.method} ${request.url}`;
      const hit = entries.get(key);
      if (hit && hit.expires > Date.now()) {
        return new Response(request.method === "HEAD" ? null : hit.body, { status: hit.status, headers: hit.headers });
      }
      const response = await render();
      const keepFor = publicMaxAge(response);
      if (keepFor <= 0) return response;
      const body = new Uint8Array(await response.arrayBuffer());
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value);
      const stored = { expires: Date.now() + keepFor * 1000, status: response.status, headers: [...response.headers.entries()], body };
      entries.set(key, stored);
      return new Response(request.method === "HEAD" ? null : body, { status: stored.status, headers: stored.headers });
    },
  };
}
