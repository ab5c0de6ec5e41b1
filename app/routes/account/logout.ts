import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { getSignedInUser, signOut } from "@server/accounts/index.server";
import { redirectWithAuthCookies } from "~/server/auth-response.server";
import { dbContext } from "~/server/db-context.server";

/** Signing out is a POST (a link could be triggered by any page); it deletes the session row. */
export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  const response = redirectWithAuthCookies("/login", await signOut(db, request));
  // A repartidor's phone keeps the day's route for the driver app (decision 0079): signing out,
  // from any page, asks the browser to drop it with the service worker. The driver app's page also
  // clears it itself before it signs out, for browsers that ignore this header.
  if (user?.role === "repartidor") response.headers.set("Clear-Site-Data", '"cache", "storage"');
  return response;
}

export function loader() {
  return redirect("/dashboard");
}
