import { createHmac, timingSafeEqual } from "node:crypto";
import { appSecret } from "../config/app-secret";
import { publicSiteUrl } from "../config/env";

/** Where a customer sees and changes their choice; the e-mail link and RFC 8058's POST go here. */
export const EMAIL_PREFERENCES_PATH = "/preferencias-de-correo";

const signature = (email: string) => createHmac("sha256", appSecret()).update(`promotional-email-preferences:${email}`).digest("base64url");

/**
 * Issue 12: revoking needs no login, so the link names the address and proves the shop wrote it
 * (HMAC with the app secret). It does not expire: an old promotion must still unsubscribe.
 */
export function emailPreferencesToken(email: string): string {
  const address = email.trim().toLowerCase();
  return `${Buffer.from(address).toString("base64url")}.${signature(address)}`;
}

/** The address a token was made for, or null for anything the shop did not sign. */
export function emailFromPreferencesToken(token: string | null | undefined): string | null {
  if (!token || token.length > 600 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [encoded = "", given = ""] = token.split(".");
  const address = Buffer.from(encoded, "base64url").toString("utf8");
  const expected = Buffer.from(signature(address));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? address : null;
}

/** The one-click unsubscribe URL of an address (e-mail footer and List-Unsubscribe header). */
export function emailPreferencesUrl(email: string, siteUrl: string = publicSiteUrl()): string {
  const url = new URL(EMAIL_PREFERENCES_PATH, siteUrl);
  url.searchParams.set("token", emailPreferencesToken(email));
  return url.toString();
}

/** Where the double opt-in's confirmation e-mail leads (decision 0072): a page whose button confirms. */
export const PROMOTIONAL_CONSENT_CONFIRM_PATH = "/preferencias-de-correo/confirmar";

export function promotionalConsentConfirmUrl(token: string, siteUrl: string = publicSiteUrl()): string {
  const url = new URL(PROMOTIONAL_CONSENT_CONFIRM_PATH, siteUrl);
  url.searchParams.set("token", token);
  return url.toString();
}
