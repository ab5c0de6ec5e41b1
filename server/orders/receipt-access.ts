import { createHmac, timingSafeEqual } from "node:crypto";
import { appSecret } from "../config/app-secret";

/**
 * Who may see an order's personal data on the receipt pages (decisions.md, Accounts and security):
 * the browser holding the signed order cookie from checkout, or a link carrying a signed token
 * (as sent by email). Anyone else reaching the page by id sees the status only.
 */
export function receiptToken(orderId: string): string {
  return createHmac("sha256", appSecret()).update(`receipt:${orderId}`).digest("base64url");
}

/** The order's page with its signed token, as e-mails link it: reachable without signing in. */
export function receiptUrl(orderId: string, siteUrl: string): string {
  return new URL(receiptPath(orderId), siteUrl).toString();
}

/** The same page relative to the site (WhatsApp's URL buttons carry only the part after the host). */
export function receiptPath(orderId: string): string {
  return `orden/${orderId}?token=${receiptToken(orderId)}`;
}

export function isValidReceiptToken(orderId: string, token: string | null | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(receiptToken(orderId));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
