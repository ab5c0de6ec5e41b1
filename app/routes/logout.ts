import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { signOut } from "@server/accounts/index.server";
import { redirectWithAuthCookies } from "~/auth-response.server";
import { dbContext } from "~/db-context.server";

/** Signing out is a POST (a link could be triggered by any page); it deletes the session row. */
export async function action({ request, context }: Route.ActionArgs) {
  return redirectWithAuthCookies("/login", await signOut(context.get(dbContext), request));
}

export function loader() {
  return redirect("/dashboard");
}
