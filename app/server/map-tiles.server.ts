import { env } from "@server/config/index.server";
import type { MapTiles } from "~/components/map/location-picker";

/** What a page with a map hands the browser (issue 26): the tiles' URL template and their attribution. */
export function mapTiles(): MapTiles {
  const config = env();
  return { url: config.MAP_TILES_URL, attribution: config.MAP_TILES_ATTRIBUTION };
}
