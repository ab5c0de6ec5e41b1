import type { Route } from "./+types/cart-prices";
import { priceCartLines } from "@server/catalog/index.server";
import { dbContext } from "~/server/db-context.server";
import { int32Id } from "@core/input-schemas";
import { z } from "@core/zod";
import { methodNotAllowedJson, readJson } from "~/server/request-body.server";

const requestSchema = z.object({
  items: z
    .array(
      z.object({
        productId: int32Id(),
        variantId: int32Id().nullable(),
        quantity: z.number().int().min(1).max(999),
      }),
    )
    .max(100),
});

/** Current prices for the lines of a browser-kept cart, so the cart can correct itself visibly. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowedJson();
  const parsed = requestSchema.safeParse(await readJson(request));
  if (!parsed.success) return Response.json({ error: "Carrito inválido" }, { status: 400 });
  const priced = await priceCartLines(context.get(dbContext), parsed.data.items);
  return Response.json(priced, { headers: { "Cache-Control": "no-store" } });
}
