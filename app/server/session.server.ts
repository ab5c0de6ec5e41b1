import { createContext, redirect, type MiddlewareFunction } from "react-router";
import { getSignedInUser, type SignedInUser } from "@server/accounts/index.server";
import { clientAddressFrom, clientLimitKey } from "@server/config/client-address";
import { env } from "@server/config/env";
import { dbContext } from "./db-context.server";

/** The signed-in customer, set by the account area's middleware for every loader and action below it. */
export const userContext = createContext<SignedInUser>();

/** Spec §6: account pages need a session; without one, /login, and back here afterwards. */
export const requireUserMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const user = await getSignedInUser(context.get(dbContext), request);
  if (!user) throw redirect(loginUrlFor(request));
  context.set(userContext, user);
  return next();
};

export function loginUrlFor(request: Request): string {
  const url = new URL(request.url);
  return `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** Only paths on this site: an open redirect after login would hand the session page to anyone. */
export { safeRedirectPath } from "~/lib/safe-redirect";

/**
 * Who is asking, for per-client rate limits. scripts/serve.mjs writes the socket address into
 * `x-socket-address` (overwriting whatever the client sent); server/config/client-address.ts
 * decides, with TRUST_PROXY, how much of X-Forwarded-For to believe.
 */
export function clientKey(request: Request): string {
  return clientLimitKey(clientAddress(request));
}

/** The client's own address, whole (the audit log records it as it came). */
export function clientAddress(request: Request): string {
  return clientAddressFrom(
    { socket: request.headers.get("x-socket-address") ?? "127.0.0.1", forwardedFor: request.headers.get("x-forwarded-for") },
    env().TRUST_PROXY,
  );
}
