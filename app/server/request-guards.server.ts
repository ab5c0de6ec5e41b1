/**
 * Issue 9: requests no page of the shop was made for are answered here, before any route runs,
 * with a 4xx and a Spanish message instead of a 500 from deep inside a loader or action.
 */
import { data, type MiddlewareFunction } from "react-router";
import { discardBody, METHOD_NOT_ALLOWED } from "./request-body.server";

/** Pages are read with GET/HEAD and forms post; nothing of the shop answers another method. */
const ALLOWED = new Set(["GET", "HEAD", "POST"]);

/** What React Router answers, in English, for a method a resource route has no handler for. */
const ROUTER_DEFAULT_BODY = '{"message":"Unexpected Server Error"}';

/**
 * A DELETE or PUT used to reach the route's action (made for a POSTed form) and fail there with a
 * 500: any other method is a 405 up front. A GET or POST to a resource route without a loader or
 * action, which React Router refuses with an English body, gets a Spanish 405.
 */
export const methodGuardMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (!ALLOWED.has(request.method)) throw data(METHOD_NOT_ALLOWED, { status: 405, headers: { Allow: "GET, HEAD, POST" } });
  const response = await next();
  // A 413 is never read on: serve.mjs closes its connection after the answer.
  if (request.method === "POST" && response.status >= 400 && response.status !== 413 && !request.bodyUsed) await discardBody(request);
  if ((response.status === 400 || response.status === 405) && response.headers.get("content-type")?.includes("json")) {
    if ((await response.clone().text()) === ROUTER_DEFAULT_BODY) {
      const headers = new Headers(response.headers);
      headers.delete("content-length");
      return Response.json({ error: METHOD_NOT_ALLOWED }, { status: 405, headers });
    }
  }
  return response;
};
