/** The configuration's door for the app's glue (entry.server, the CSP): validated settings only. */
export { env, InvalidEnvironmentError, mapTilesOrigin, publicSiteUrl } from "./env";
