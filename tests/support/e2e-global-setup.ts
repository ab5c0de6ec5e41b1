import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build-if-stale.mjs";
import { CHROMIUM_MISSING, findChromium } from "../../scripts/find-chromium.mjs";
import { launchSharedChromium } from "./browser";
import { startShopServer } from "./shop-server";
import "./shared-shop";

/** One production build, a seeded shop server per test worker (shared-shop.ts) and one Chromium shared by the browser tests. */
export default async function setup(project: TestProject) {
  // Without a browser every test of the project would fail on its own: stop before any runs.
  if (!findChromium()) throw new Error(CHROMIUM_MISSING);
  buildIfStale({ quiet: true });
  // The shared server starts on a copy of the seeded template that global-setup.ts (listed first in
  // the project's globalSetup) made: no migrating and seeding of its own. Its storefront reads are
  // cached 5 s instead of 30: organization-votes waits for the public page to show a vote, up to
  // 40 s on the default. Caching and invalidation with the defaults are tested on servers of their
  // own (content-admin, the reliability suite); server-lifecycle covers a first start.
  const workers = typeof project.config.maxWorkers === "number" ? project.config.maxWorkers : 1;
  const [chromium, ...servers] = await Promise.all([
    launchSharedChromium(),
    ...Array.from({ length: workers }, () =>
      startShopServer({ templates: project.getProvidedContext().databaseTemplates, env: { STOREFRONT_CACHE_SECONDS: "5" } }),
    ),
  ]);
  project.provide(
    "shopServers",
    servers.map((server) => ({ baseURL: server.baseURL, outboxDir: server.outboxDir, errorLog: server.errorLog })),
  );
  project.provide("chromiumEndpoint", chromium.wsEndpoint());
  return async () => {
    await chromium.close();
    await Promise.all(servers.map((server) => server.stop()));
  };
}
