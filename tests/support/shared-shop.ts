/**
 * The shared shop server of this test worker. The e2e project runs two files at once, each worker
 * with a server (and database) of its own (e2e-global-setup.ts), so files never share a server's
 * state: vote counts, delivery windows' capacity, the Despacho lists of a date, sign-in throttling.
 * A worker runs one file at a time and its pool id (1…maxWorkers) names its server.
 */
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    shopServers: { baseURL: string; outboxDir: string; errorLog: string }[];
  }
}

export function sharedShop() {
  const servers = inject("shopServers");
  const slot = Number(process.env.VITEST_POOL_ID ?? "1");
  return servers[(slot - 1) % servers.length]!;
}
