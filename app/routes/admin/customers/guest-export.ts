import { data, redirect } from "react-router";
import type { Route } from "./+types/guest-export";
import { exportGuestData, guestExportFilename } from "@server/customers/index.server";
import { GUEST_NOT_FOUND, guestOrderIdFrom, jsonDownload } from "~/routes/admin/customers/customers.server";
import { guestPath } from "~/lib/customer-links";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";

/** Decision 0061, a guest's Ley 29733 access request: the admin only, like an account's (decision 0051). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("datos-personales.gestionar")];

/** The export is a POST (it writes an audit row); a plain visit goes to the guest's page. */
export function loader({ params }: Route.LoaderArgs) {
  return redirect(guestPath(guestOrderIdFrom(params)));
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const orderId = guestOrderIdFrom(params);
  const now = new Date();
  const found = await exportGuestData(context.get(dbContext), staffActor(context, request), orderId, now);
  if (!found) throw data(GUEST_NOT_FOUND, { status: 404 });
  if (found.kind === "account") return redirect(`/admin/clientes/${found.userId}`);
  return jsonDownload(found.value, guestExportFilename(orderId, now));
}
