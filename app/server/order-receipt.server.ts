import { data } from "react-router";
import { findOrderReceipt } from "@server/orders/index.server";
import type { Database } from "@server/db/index.server";
import { isOrderOwner } from "~/server/order-cookie.server";

/** Loads an order for a receipt page: personal details only for its owner, 404 when unknown. */
export async function loadReceipt(db: Database, request: Request, orderId: string) {
  const owner = await isOrderOwner(request, orderId);
  const receipt = await findOrderReceipt(db, orderId, { owner });
  if (!receipt) throw data("No se pudo cargar la orden", { status: 404 });
  return receipt;
}

export const privatePageHeaders = { "Cache-Control": "private, no-store" };
