/**
 * Decision 0086: the driver app's document draws its first paint with the part of the stylesheet
 * its markup uses, and holds the whole file back (`media="not all"`, `data-deferred-stylesheet`).
 * Once the page is idle the whole file applies (the browser has fetched it by then, at the lowest
 * priority), so what the page draws later — a banner, a refused tap, the next admin page — is
 * styled. Safari has no requestIdleCallback: a short timer stands in.
 */
export function applyDeferredStylesheets(): void {
  const links = document.querySelectorAll<HTMLLinkElement>("link[data-deferred-stylesheet]");
  if (links.length === 0) return;
  const apply = () => {
    for (const link of links) {
      link.media = "all";
      link.removeAttribute("data-deferred-stylesheet");
    }
  };
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(apply, { timeout: 1000 });
  else window.setTimeout(apply, 200);
}
