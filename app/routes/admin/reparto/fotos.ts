import { data } from "react-router";
import type { Route } from "./+types/fotos";
import { saveDeliveryPhoto } from "@server/deliveries/index.server";
import { dbContext } from "~/server/db-context.server";
import { METHOD_NOT_ALLOWED, readBytes } from "~/server/request-body.server";
import { allowStaff, staffContext } from "~/server/staff.server";

/**
 * Issue 40: the photo of the bidones at the door, sent by the driver app before the «Entregado»
 * tap that names it (the phone keeps both while offline). The body is the compressed photo;
 * `?envio=` is the stop and `?clave=` the phone's key for the photo, so sending it twice stores it once.
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("reparto.usar")];

export function loader() {
  throw data(METHOD_NOT_ALLOWED, { status: 405, headers: { Allow: "POST" } });
}

const noStore = { "Cache-Control": "no-store" };

export async function action({ request, context }: Route.ActionArgs) {
  const params = new URL(request.url).searchParams;
  const bytes = await readBytes(request, "upload");
  const result = await saveDeliveryPhoto(context.get(dbContext), {
    // The driver's own identity: a photo goes only on a stop of their own route.
    driverId: context.get(staffContext).id,
    deliveryId: params.get("envio") ?? "",
    key: params.get("clave") ?? "",
    bytes,
    now: new Date(),
  });
  if (result.ok) return Response.json({ status: "saved" }, { headers: noStore });
  // A 409, not a 404: the phone reads a 404 as "this account may not use the app" (sync.ts).
  if (result.reason === "not_found")
    return Response.json({ status: "refused", message: "Esta parada ya no está en tu ruta: la foto no se guardó." }, { status: 409, headers: noStore });
  return Response.json({ status: "refused", message: result.message }, { status: 400, headers: noStore });
}
