import { data, redirect } from "react-router";
import type { Route } from "./+types/person-export";
import { exportPersonData, personExportFilename } from "@server/customers/index.server";
import { jsonDownload, PERSON_NOT_FOUND, personReferenceFrom } from "~/routes/admin/customers/customers.server";
import { guestPath, personPath } from "~/lib/customer-links";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";

/** Decision 0064, the access request of a person who never bought: the admin only, like a guest's (decision 0061). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("datos-personales.gestionar")];

/** The export is a POST (it writes an audit row); a plain visit goes to the person's page. */
export function loader({ params }: Route.LoaderArgs) {
  return redirect(personPath(personReferenceFrom(params)));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const reference = personReferenceFrom(params);
  const now = new Date();
  const found = await exportPersonData(context.get(dbContext), staffActor(context, request), reference, now);
  if (!found) throw data(PERSON_NOT_FOUND, { status: 404 });
  if (found.kind === "account") return redirect(`/admin/clientes/${found.userId}`);
  if (found.kind === "guest") return redirect(guestPath(found.orderId));
  return jsonDownload(found.value, personExportFilename(reference, now));
}
