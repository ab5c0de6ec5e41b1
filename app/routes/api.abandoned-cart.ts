import { z } from "zod";
import type { Route } from "./+types/api.abandoned-cart";
import { saveAbandonedCart } from "@server/cart/index.server";
import { dbContext } from "~/db-context.server";

const requestSchema = z.object({
  email: z.string().trim().toLowerCase().email().max(160),
  items: z
    .array(z.object({ productId: z.number().int().positive(), variantId: z.number().int().positive().nullable(), quantity: z.number().int().min(1).max(999) }))
    .min(1)
    .max(100),
  origin: z.string().max(200).optional(),
});

/** Spec §7 save-abandoned-cart: called when the checkout email loses focus; its errors are ignored. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const parsed = requestSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ ok: false }, { status: 400 });
  await saveAbandonedCart(context.get(dbContext), parsed.data, new Date());
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
