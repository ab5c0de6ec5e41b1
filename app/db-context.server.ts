import { createContext, type MiddlewareFunction } from "react-router";
import { getDatabase, type Database } from "@server/db/index.server";

/** The database travels to loaders and actions through the request context (React Router's template pattern). */
export const dbContext = createContext<Database>();

export const databaseMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
  context.set(dbContext, await getDatabase());
  return next();
};
