/**
 * Where a visitor may be sent after signing in or registering (issue 9): only a path of this shop.
 * Browsers forgive a lot in a Location header — `/\evil`, `/<tab>/evil`, `//evil` all leave the
 * site — so the value is refused on sight of any of those, then resolved against a stand-in origin
 * and kept only if it is still on it. What comes back is the URL's own serialization: percent-
 * encoded, so it is always a valid header value.
 */
const STAND_IN_ORIGIN = "http://tienda.invalid";

export function safeRedirectPath(value: string | null | undefined, fallback = "/dashboard"): string {
  if (!value || value.length > 2000) return fallback;
  // Controls, whitespace (which URL parsing strips, turning "/\t/evil" into "//evil") and backslashes.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f\\]|\s/.test(value)) return fallback;
  if (!value.startsWith("/") || value.startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(value, STAND_IN_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== STAND_IN_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? fallback : path;
}
