import { data, type MiddlewareFunction } from "react-router";
import { METHOD_NOT_ALLOWED } from "./request-body.server";

/** Pages are read with GET/HEAD and forms post; nothing of the shop answers another method. */
const ALLOWED = new Set(["GET", "HEAD", "POST"]);

/**
 * Issue 9: a DELETE or PUT used to reach the route's action (made for a POSTed form) and fail
 * there with a 500. Any other method is a 405 up front; and a POST to a route without an action,
 * which React Router answers 405 with an English body, gets the Spanish one.
 */
export const methodGuardMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (!ALLOWED.has(request.method)) throw data(METHOD_NOT_ALLOWED, { status: 405, headers: { Allow: "GET, HEAD, POST" } });
  const response = await next();
  if (response.status === 405 && response.headers.get("content-type")?.includes("json")) {
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return Response.json({ error: METHOD_NOT_ALLOWED }, { status: 405, headers });
  }
  return response;
};
