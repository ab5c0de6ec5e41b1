import { data, type MiddlewareFunction } from "react-router";
import { publicSiteUrl } from "@server/config/env";
import { FLOW_REGISTER_NOTIFY_PATH } from "@server/payments/index.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request protection for every form and action (issue 4): a state-changing request
 * must come from this site. Browsers send `Origin` on every POST, and `Sec-Fetch-Site` besides;
 * a request with neither (a server-to-server webhook, curl) carries no session cookie a browser
 * could have attached, so it passes.
 */
export const sameOriginMiddleware: MiddlewareFunction<Response> = ({ request }, next) => {
  if (SAFE_METHODS.has(request.method) || isFlowRegistrationReturn(request)) return next();
  const origin = request.headers.get("origin");
  if (origin) {
    if (!isOwnOrigin(origin, request)) throw data("Solicitud no permitida", { status: 403 });
  } else if (request.headers.get("sec-fetch-site") === "cross-site") {
    throw data("Solicitud no permitida", { status: 403 });
  }
  return next();
};

function isOwnOrigin(origin: string, request: Request): boolean {
  if (origin === "null") return false;
  try {
    const host = new URL(origin).host;
    return host === new URL(request.url).host || host === request.headers.get("host") || host === new URL(publicSiteUrl()).host;
  } catch {
    return false;
  }
}

/**
 * Flow's card page POSTs the registration token to this one path from Flow's site (payments.md
 * B.2). The route only redirects to the customer's page with the token; the card is looked up
 * there with the signed API, for the signed-in customer, after a same-origin POST (decision 0021).
 */
function isFlowRegistrationReturn(request: Request): boolean {
  return request.method === "POST" && new URL(request.url).pathname === FLOW_REGISTER_NOTIFY_PATH;
}
