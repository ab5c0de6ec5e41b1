import type { Route } from "./+types/delivery-photo";
import { deliveryPhotoForCustomer } from "@server/deliveries/index.server";
import { dbContext } from "~/server/db-context.server";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { requireUserMiddleware, userContext } from "~/server/session.server";

export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

/**
 * /dashboard/envios/{id}/foto (issue 40): the photo of the bidones the driver left at the door,
 * for the customer whose order it is only; anyone else gets the answer an unknown delivery gets.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const photo = await deliveryPhotoForCustomer(context.get(dbContext), context.get(userContext).id, params.deliveryId);
  if (!photo) return new Response("Foto no encontrada", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", ...privatePageHeaders } });
  return new Response(new Uint8Array(photo.bytes), {
    headers: { "Content-Type": "image/webp", "Content-Length": String(photo.bytes.length), "X-Content-Type-Options": "nosniff", ...privatePageHeaders },
  });
}
