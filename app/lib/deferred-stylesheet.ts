import { useEffect } from "react";
import { useLocation, useNavigation } from "react-router";

/** The whole stylesheet, held back by the document (`media="not all"`, `data-deferred-stylesheet`), applied now. */
export function applyDeferredStylesheets(): void {
  for (const link of document.querySelectorAll<HTMLLinkElement>("link[data-deferred-stylesheet]")) {
    link.media = "all";
    link.removeAttribute("data-deferred-stylesheet");
  }
}

/**
 * Decision 0086: the driver app's document carries the part of the stylesheet its route can draw
 * (its markup's classes and every class its modules name), and holds the whole file back. The
 * whole file is applied only when the page leaves the route (a link, a form to another page, the
 * route unmounting), as the next page starts loading: staying on the route never pays for a
 * second style pass over the page, and the next page is drawn by the whole file. The browser
 * has long fetched the file by then, at the lowest priority.
 */
export function useWholeStylesheetWhenLeaving(): void {
  const { pathname } = useLocation();
  const leavingTo = useNavigation().location?.pathname;
  useEffect(() => {
    if (leavingTo !== undefined && leavingTo !== pathname) applyDeferredStylesheets();
  }, [leavingTo, pathname]);
  useEffect(() => applyDeferredStylesheets, []);
}
