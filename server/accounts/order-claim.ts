/**
 * "Agregar este pedido a mi cuenta" (issue 39, decision 0072): a guest order enters an account only
 * when the account's owner adds it. The confirmation e-mail of a guest order whose address is a
 * proven account's carries a link signed for that order and that address; it opens a page
 * (`/dashboard/agregar-pedido/:orderId`) whose GET only shows the order's number, and whose button
 * (a POST) files the order under the account, only for the account of the order's own address,
 * signed in. An address typed at a checkout proves nothing; the link reaching that mailbox plus the
 * password of the account that proved it do.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { appSecret } from "../config/app-secret";
import type { Database } from "../db/client";
import { orders, orderStatusChanges, users } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { provenAccountOf } from "./guest-orders";

export const ORDER_CLAIM_PATH = "/dashboard/agregar-pedido";

const signature = (orderId: string, email: string) =>
  createHmac("sha256", appSecret()).update(`order-claim:${orderId}:${email.trim().toLowerCase()}`).digest("base64url");

/** The token of the link: signed for this order and this address, so it names nothing else. */
export function orderClaimToken(orderId: string, email: string): string {
  return signature(orderId, email);
}

function isValidOrderClaimToken(orderId: string, email: string, token: string | null | undefined): boolean {
  if (!token || token.length > 100) return false;
  const expected = Buffer.from(signature(orderId, email));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The link the order's confirmation e-mail carries, or undefined: only a guest order (no account)
 * whose address belongs to an account whose owner proved it. Anyone else's e-mail has no such link.
 */
export async function orderClaimUrl(
  db: DatabaseOrTransaction,
  order: { id: string; userId: string | null; customerEmail: string },
  siteUrl: string,
): Promise<string | undefined> {
  if (order.userId || !(await provenAccountOf(db, order.customerEmail))) return undefined;
  const url = new URL(`${ORDER_CLAIM_PATH}/${order.id}`, siteUrl);
  url.searchParams.set("token", orderClaimToken(order.id, order.customerEmail));
  return url.toString();
}

export type OrderClaimRefusal =
  /** Not a link the shop signed for this order and its address (or no such order). */
  | "invalid_link"
  /** Signed in, but not as the account of the order's address. */
  | "other_account"
  /** The account of the order's address, but its owner never proved the address (decision 0072). */
  | "address_not_proven"
  /** The order is already another account's. */
  | "not_a_guest_order";

export type OrderClaimView = { ok: true; orderNumber: string; alreadyInAccount: boolean } | { ok: false; reason: OrderClaimRefusal };

type Claimant = { id: string; email: string };

function refusalFor(
  order: { userId: string | null; customerEmail: string; id: string } | undefined,
  account: { id: string; email: string; provenAt: Date | null } | undefined,
  token: string,
): OrderClaimRefusal | null {
  if (!order || !isValidOrderClaimToken(order.id, order.customerEmail, token)) return "invalid_link";
  if (!account || account.email !== order.customerEmail.trim().toLowerCase()) return "other_account";
  if (!account.provenAt) return "address_not_proven";
  if (order.userId && order.userId !== account.id) return "not_a_guest_order";
  return null;
}

/** What the link's page shows the signed-in visitor. Reads only: opening the link changes nothing. */
export async function readOrderClaim(db: Database, input: { orderId: string; token: string; user: Claimant }): Promise<OrderClaimView> {
  const [order] = await db
    .select({ id: orders.id, orderNumber: orders.orderNumber, userId: orders.userId, customerEmail: orders.customerEmail })
    .from(orders)
    .where(eq(orders.id, input.orderId));
  const [account] = await db.select({ id: users.id, email: users.email, provenAt: users.ownershipProvenAt }).from(users).where(eq(users.id, input.user.id));
  const refusal = refusalFor(order, account, input.token);
  if (refusal) return { ok: false, reason: refusal };
  return { ok: true, orderNumber: order!.orderNumber, alreadyInAccount: order!.userId === account!.id };
}

export type OrderClaimResult = { ok: true; orderNumber: string; attached: boolean } | { ok: false; reason: OrderClaimRefusal };

/**
 * The page's button: files the guest order under the signed-in account when that account is the
 * order's address's and its owner proved the address. Decision 0025: the customer's row, then the
 * order. A second POST finds the order already there and changes nothing. The order's history says
 * who added it, as it says who changed its status.
 */
export async function addGuestOrderToAccount(db: Database, input: { orderId: string; token: string; user: Claimant; now: Date }): Promise<OrderClaimResult> {
  return inTransaction(db, async (tx) => {
    const [account] = await tx
      .select({ id: users.id, email: users.email, provenAt: users.ownershipProvenAt })
      .from(users)
      .where(eq(users.id, input.user.id))
      .for("update");
    const [order] = await tx
      .select({ id: orders.id, orderNumber: orders.orderNumber, userId: orders.userId, customerEmail: orders.customerEmail, status: orders.status })
      .from(orders)
      .where(eq(orders.id, input.orderId))
      .for("update");
    const refusal = refusalFor(order, account, input.token);
    if (refusal) return { ok: false as const, reason: refusal };
    if (order!.userId) return { ok: true as const, orderNumber: order!.orderNumber, attached: false };
    await tx
      .update(orders)
      .set({ userId: account!.id, updatedAt: input.now })
      .where(and(eq(orders.id, order!.id), isNull(orders.userId)));
    await tx.insert(orderStatusChanges).values({
      orderId: order!.id,
      fromStatus: order!.status,
      toStatus: order!.status,
      actor: "customer",
      note: `Pedido agregado a la cuenta de ${account!.email} por su titular, desde el enlace del correo de confirmación`,
      createdAt: input.now,
    });
    return { ok: true as const, orderNumber: order!.orderNumber, attached: true };
  });
}
