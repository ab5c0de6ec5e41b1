import { data, redirect } from "react-router";
import type { Route } from "./+types/customer-export";
import { customerExportFilename, exportCustomerData } from "@server/customers/index.server";
import { CUSTOMER_NOT_FOUND, customerIdFrom, jsonDownload } from "~/routes/admin/customers/customers.server";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";

/** Issue 11, Ley 29733 access request: the admin only (decision 0051). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("datos-personales.gestionar")];

/** The export is a POST (it writes an audit row); a plain visit goes to the customer's page. */
export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/admin/clientes/${customerIdFrom(params)}`);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const userId = customerIdFrom(params);
  const now = new Date();
  const document = await exportCustomerData(context.get(dbContext), staffActor(context, request), userId, now);
  if (!document) throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  return jsonDownload(document, customerExportFilename(userId, now));
}
