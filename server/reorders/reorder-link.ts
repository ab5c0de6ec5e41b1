import { createHmac, timingSafeEqual } from "node:crypto";
import { appSecret } from "../config/app-secret";
import { publicSiteUrl } from "../config/env";

/**
 * The "Repetir pedido" link of e-mails and reminders (decision 0076): `/repetir-pedido/{order}?token=`,
 * signed with the app secret like the receipt and unsubscribe links, carrying its own expiry. While
 * it is valid, a visitor who holds it (the order's e-mail reached them) gets the cart and the
 * order's contact and address in the checkout; once it expires it still fills the cart, but never
 * shows the order's personal data again. Exported for the WhatsApp "entregado" message.
 */
export const REORDER_PATH = "/repetir-pedido";
/** The order e-mails' link: long enough for the usual time between orders. */
export const REORDER_LINK_DAYS = 30;

const signature = (orderId: string, expiresAt: number) => createHmac("sha256", appSecret()).update(`reorder:${orderId}:${expiresAt}`).digest("base64url");

export function reorderToken(orderId: string, expiresAt: Date): string {
  const seconds = Math.floor(expiresAt.getTime() / 1000);
  return `${seconds.toString(36)}.${signature(orderId, seconds)}`;
}

export type ReorderTokenCheck = { valid: true; expired: boolean } | { valid: false };

/** Whether the shop signed this token for this order, and whether it has expired at `now`. */
export function checkReorderToken(orderId: string, token: string | null | undefined, now: Date): ReorderTokenCheck {
  if (!token || token.length > 80 || !/^[0-9a-z]{1,10}\.[A-Za-z0-9_-]{43}$/.test(token)) return { valid: false };
  const [encoded = "", given = ""] = token.split(".");
  const seconds = Number.parseInt(encoded, 36);
  if (!Number.isSafeInteger(seconds)) return { valid: false };
  const expected = Buffer.from(signature(orderId, seconds));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return { valid: false };
  return { valid: true, expired: seconds * 1000 <= now.getTime() };
}

/** The signed link to repeat an order, valid `days` from `now`. */
export function reorderUrl(orderId: string, input: { now: Date; siteUrl?: string; days?: number }): string {
  const expiresAt = new Date(input.now.getTime() + (input.days ?? REORDER_LINK_DAYS) * 86_400_000);
  const url = new URL(`${REORDER_PATH}/${orderId}`, input.siteUrl ?? publicSiteUrl());
  url.searchParams.set("token", reorderToken(orderId, expiresAt));
  return url.toString();
}
