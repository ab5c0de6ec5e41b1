import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build-if-stale.mjs";
import { CHROMIUM_MISSING, findChromium } from "../../scripts/find-chromium.mjs";
import { startShopServer } from "./shop-server";

declare module "vitest" {
  export interface ProvidedContext {
    shopBaseURL: string;
    shopOutboxDir: string;
    shopErrorLog: string;
  }
}

/** One production build and one seeded shop server shared by the browser tests. */
export default async function setup(project: TestProject) {
  // Without a browser every test of the project would fail on its own: stop before any runs.
  if (!findChromium()) throw new Error(CHROMIUM_MISSING);
  buildIfStale({ quiet: true });
  const server = await startShopServer();
  project.provide("shopBaseURL", server.baseURL);
  project.provide("shopOutboxDir", server.outboxDir);
  project.provide("shopErrorLog", server.errorLog);
  return () => server.stop();
}
