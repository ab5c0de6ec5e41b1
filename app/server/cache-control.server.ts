import type { MiddlewareFunction } from "react-router";

const PRIVATE = "private, no-store";

/** scripts/micro-cache.mjs's SHARED_PAGE_HEADER: read and removed there, never sent to a visitor. */
const SHARED_PAGE_HEADER = "x-shared-page";

/** better-auth's session cookie (plain, or __Secure- prefixed on https). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?va\.session_token=/;

/**
 * Issue 9: whatever is answered to a request that carries a session is never stored by a shared
 * cache. Routes that show personal data already say `private, no-store`; this is the net under
 * every route, including future ones: a response that would be `public` (or says nothing) becomes
 * `private, no-store` when the visitor is signed in, and so does any response that sets a cookie.
 * The page micro-cache (scripts/micro-cache.mjs) follows the same rules on its side.
 */
export const privateWhenSignedInMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next();
  const signedIn = SESSION_COOKIE.test(request.headers.get("cookie") ?? "");
  const cacheControl = response.headers.get("cache-control") ?? "";
  const setsCookie = response.headers.has("set-cookie");
  if (!(signedIn || setsCookie) || /\b(?:private|no-store)\b/.test(cacheControl)) return response;
  // The route said its page is the same for everyone: the page cache may render it for an
  // anonymous visitor and serve that to the next signed-in one (issue 13).
  const shared = !setsCookie && /\bpublic\b/.test(cacheControl);
  try {
    response.headers.set("Cache-Control", PRIVATE);
    if (shared) response.headers.set(SHARED_PAGE_HEADER, "1");
    return response;
  } catch {
    // Immutable headers (Response.redirect): copy them into a response we may change.
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", PRIVATE);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
};
