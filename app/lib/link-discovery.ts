import { useMatches, type DiscoverBehavior } from "react-router";
import { handleSays } from "./route-handle";

/**
 * How the frame's links learn their routes on this page. By default React Router asks the server
 * for the routes of every link on screen as soon as the page runs; a page whose route says
 * `handle = { discoverLinks: "none" }` (the driver app, whose phone shares a weak signal with its
 * first paint: issue 26, decision 0086) asks only when a link is followed.
 */
export function useLinkDiscovery(): DiscoverBehavior {
  return handleSays(useMatches(), "discoverLinks", "none") ? "none" : "render";
}
