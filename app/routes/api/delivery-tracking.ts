import type { Route } from "./+types/delivery-tracking";
import { getSignedInUser } from "@server/accounts/index.server";
import { env } from "@server/config/index.server";
import { deliveryOwner, deliveryTracking } from "@server/deliveries/index.server";
import { dbContext } from "~/server/db-context.server";
import { isOrderOwner } from "~/server/order-cookie.server";

const NOT_FOUND = { error: "Envío no encontrado" };
const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * The customer's live tracking of one delivery (issue 26): "Faltan N paradas", the arrival window,
 * or who received it. Only the order's owner may read it: the signed-in account it belongs to, the
 * browser that placed it (order cookie) or whoever holds its e-mailed receipt link (`?token=`).
 * Anyone else, unknown ids included, gets the same 404. A few small queries: the pages poll it.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const owner = await deliveryOwner(db, params.deliveryId);
  if (!owner) return Response.json(NOT_FOUND, { status: 404, headers: PRIVATE });
  const user = owner.userId ? await getSignedInUser(db, request) : null;
  const allowed = (user !== null && user.id === owner.userId) || (await isOrderOwner(request, owner.orderId));
  if (!allowed) return Response.json(NOT_FOUND, { status: 404, headers: PRIVATE });
  const tracking = await deliveryTracking(db, params.deliveryId, new Date());
  return Response.json({ tracking, pollSeconds: env().TRACKING_POLL_SECONDS }, { headers: PRIVATE });
}
