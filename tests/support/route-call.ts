import { randomUUID } from "node:crypto";
import { RouterContextProvider, type MiddlewareFunction } from "react-router";
import type { Database } from "@server/db/client";
import { signIn } from "@server/accounts/index.server";

export const ROUTE_ORIGIN = "http://shop.test";

/** The session cookie of an account signed in on this database, as a browser would send it back. */
export async function sessionCookie(db: Database, account: { email: string; password: string }): Promise<string> {
  const result = await signIn(db, { email: account.email, password: account.password, remember: true, client: `route-${randomUUID()}` });
  if (!result.ok) throw new Error(`sign-in failed for ${account.email}`);
  return result.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
}

interface RouteModule {
  action: (args: never) => unknown;
  middleware?: readonly unknown[];
}

/** What the route answered: a redirect's target, the `data()` it returned, or the Response it sent. */
export interface RouteAnswer {
  status: number;
  location?: string | null;
  data?: unknown;
  response?: Response;
}

/**
 * Posts to a route's action through the middlewares React Router would run first (the staff
 * area's guard, then the route's own), on this database: what an anonymous visitor, a customer or
 * a staff member of another role gets is what the real server answers them, without a server.
 */
export async function postToRoute(options: {
  db: Database;
  dbContext: Parameters<RouterContextProvider["set"]>[0];
  route: RouteModule;
  /** The middlewares before the route's own (e.g. the staff area's). */
  outer?: readonly unknown[];
  path: string;
  params?: Record<string, string>;
  body: URLSearchParams | string;
  cookie?: string;
  /** The body's Content-Type when it is not what the body is (a form, or JSON). */
  contentType?: string;
}): Promise<RouteAnswer> {
  const context = new RouterContextProvider();
  context.set(options.dbContext, options.db);
  const form = options.body instanceof URLSearchParams;
  const request = new Request(`${ROUTE_ORIGIN}${options.path}`, {
    method: "POST",
    headers: {
      "content-type": options.contentType ?? (form ? "application/x-www-form-urlencoded" : "application/json"),
      origin: ROUTE_ORIGIN,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: options.body.toString(),
  });
  const args = { request, params: options.params ?? {}, context, unstable_pattern: "" } as never;
  const middlewares = [...(options.outer ?? []), ...(options.route.middleware ?? [])] as MiddlewareFunction<unknown>[];
  const run = async (index: number): Promise<unknown> =>
    index < middlewares.length ? await middlewares[index]!(args, () => run(index + 1) as never) : await options.route.action(args);
  try {
    const answer = (await run(0)) as { data?: unknown; init?: { status?: number } } | Response;
    if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("location"), response: answer };
    return { status: answer.init?.status ?? 200, data: answer.data };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location"), response: thrown };
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status };
    throw thrown;
  }
}
