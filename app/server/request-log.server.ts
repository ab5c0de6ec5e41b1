import type { MiddlewareFunction } from "react-router";
import { requestRoleOf } from "@server/observability/index.server";

/**
 * Read and removed by scripts/serve.mjs for the request's log line and metrics (issue 27), never
 * sent to a visitor: the matched route's pattern (`/dashboard/pedidos/:orderId`, never the path
 * with its ids) and the kind of user who asked.
 */
export const ROUTE_PATTERN_HEADER = "x-route-pattern";
export const REQUEST_ROLE_HEADER = "x-request-role";

export const requestLogMiddleware: MiddlewareFunction<Response> = async ({ request, pattern: matched }, next) => {
  const response = await next();
  const role = requestRoleOf(request);
  // React Router gives the pattern without its leading slash ("tienda/producto/:slug").
  const pattern = matched.startsWith("/") ? matched : `/${matched}`;
  try {
    response.headers.set(ROUTE_PATTERN_HEADER, pattern);
    if (role) response.headers.set(REQUEST_ROLE_HEADER, role);
    return response;
  } catch {
    // Immutable headers (Response.redirect): copy them into a response we may change.
    const headers = new Headers(response.headers);
    headers.set(ROUTE_PATTERN_HEADER, pattern);
    if (role) headers.set(REQUEST_ROLE_HEADER, role);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
};
