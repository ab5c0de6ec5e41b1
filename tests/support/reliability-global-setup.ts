import { buildIfStale } from "../../scripts/build-if-stale.mjs";

/** The reliability scenarios start the production server: build it first when sources changed. */
export default function setup() {
  buildIfStale({ quiet: true });
}
