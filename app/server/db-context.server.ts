import { createContext, type MiddlewareFunction } from "react-router";
import { databaseConnectionFailedSince, databaseReachable, getDatabase, type Database } from "@server/db/index.server";
import { serviceUnavailableResponse } from "./service-unavailable.server";

/** The database travels to loaders and actions through the request context (React Router's template pattern). */
export const dbContext = createContext<Database>();

/**
 * Hands the database to the request, and turns a failure caused by the database being away (a
 * restart, a failover) into the Spanish 503 page instead of a generic error: the server keeps
 * running and answers normally again as soon as the database is back.
 */
export const databaseMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
  const startedAt = Date.now();
  context.set(dbContext, await getDatabase());
  const response = await next();
  if (response.status < 500) return response;
  // A connection failed while this request ran (the database was stopping or starting), or the
  // database does not answer now: either way the failure was the database's absence, not a bug.
  if (databaseConnectionFailedSince(startedAt) || !(await databaseReachable())) return serviceUnavailableResponse();
  return response;
};
