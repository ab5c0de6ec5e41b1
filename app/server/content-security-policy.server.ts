import { randomBytes } from "node:crypto";
import { env, mapTilesOrigin } from "@server/config/index.server";

/** 128 random bits, fresh for every document (the page micro-cache renews it on every hit too). */
export function createNonce(): string {
  return randomBytes(16).toString("hex");
}

/**
 * The documents' Content-Security-Policy (issue 9, docs/security.md). Scripts run only from this
 * origin or with the document's nonce (React Router's hydration data and module loader are inline
 * and carry it; JSON-LD blocks are data, not scripts). The storefront needs nothing from elsewhere;
 * only when Culqi is configured are its hosts allowed: its checkout and 3-D Secure scripts, their
 * API calls and styles, and frames, because the card's bank shows its 3-D Secure challenge from
 * its own host, which nobody can list in advance. Flow's card page is reached by a form post that
 * redirects there, so its origin joins form-action when Flow is configured. The map's tiles
 * (issue 26, MAP_TILES_URL: OpenStreetMap's by default) are images from their own host, which
 * joins img-src; the map's script and style are the shop's own, loaded only when a map opens.
 */
export function contentSecurityPolicy(nonce: string): string {
  const config = env();
  const culqi = Boolean(config.CULQI_PUBLIC_KEY && config.CULQI_SECRET_KEY);
  const flowOrigin = config.FLOW_API_KEY ? new URL(config.FLOW_API_BASE).origin : null;
  const https = config.SITE_URL?.startsWith("https://") ?? false;
  const culqiHosts = "https://*.culqi.com";
  const tiles = mapTilesOrigin(config.MAP_TILES_URL);
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${nonce}'`, ...(culqi ? [culqiHosts] : [])],
    ["style-src", "'self'", ...(culqi ? ["'unsafe-inline'", culqiHosts] : [])],
    // Pictures served from a CDN or public bucket (MEDIA_PUBLIC_URL, decision 0080) and the map's tiles (decision 0078).
    ["img-src", "'self'", "data:", ...(culqi ? ["https:"] : [tiles, ...(config.MEDIA_PUBLIC_URL ? [new URL(config.MEDIA_PUBLIC_URL).origin] : [])])],
    ["font-src", "'self'", ...(culqi ? ["https:", "data:"] : [])],
    ["connect-src", "'self'", ...(culqi ? [culqiHosts] : [])],
    ["frame-src", ...(culqi ? ["https:"] : ["'none'"])] as [string, ...string[]],
    // The driver app (decision 0079): its service worker and web manifest come from this origin.
    ["worker-src", "'self'"],
    ["manifest-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'", ...(flowOrigin ? [flowOrigin] : [])],
    ["frame-ancestors", "'none'"],
  ];
  if (https) directives.push(["upgrade-insecure-requests"]);
  return directives.map((parts) => parts.join(" ")).join("; ");
}
