import type { Route } from "./+types/abandoned-cart";
import { getSignedInUser } from "@server/accounts/index.server";
import { saveAbandonedCart } from "@server/cart/index.server";
import { dbContext } from "~/server/db-context.server";
import { orderLinesSchema } from "@core/checkout-schema";
import { emailAddress } from "@core/email-address";
import { lineText } from "@core/input-schemas";
import { z } from "@core/zod";
import { methodNotAllowedJson, readJson } from "~/server/request-body.server";
import { clientKey } from "~/server/session.server";

const requestSchema = z.object({
  email: emailAddress(),
  items: orderLinesSchema,
  origin: lineText(200).optional(),
});

/**
 * Spec §7 save-abandoned-cart: called when the checkout email loses focus; its errors are ignored
 * by the page. Limited per client and per address (server/cart), so it cannot mail strangers.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowedJson();
  const parsed = requestSchema.safeParse(await readJson(request));
  if (!parsed.success) return Response.json({ ok: false, error: "No pudimos guardar tu carrito: los datos no son válidos." }, { status: 400 });
  const db = context.get(dbContext);
  const user = await getSignedInUser(db, request);
  const result = await saveAbandonedCart(db, { ...parsed.data, client: clientKey(request), signedInEmail: user?.email ?? null }, new Date());
  if (!result.saved && result.reason === "rate_limited") {
    return Response.json(
      { ok: false, error: "Demasiadas solicitudes. Inténtalo de nuevo más tarde." },
      { status: 429, headers: { "Cache-Control": "no-store" } },
    );
  }
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
