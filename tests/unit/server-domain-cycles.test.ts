import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { floorCircles, floorOf, serverFloorGraph } from "../../eslint-rules/server-domain-cycles.js";

/** Decision 0083: the lint rule's graph of server/ folders, on small trees and on the real one. */
describe("the graph of server domains the lint rule reads", () => {
  const trees: string[] = [];
  afterEach(() => trees.splice(0).forEach((tree) => rmSync(tree, { recursive: true, force: true })));

  function serverTree(files: Record<string, string>): string {
    const root = mkdtempSync(path.join(tmpdir(), "server-graph-"));
    trees.push(root);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return root;
  }

  it("finds a circle of two domains calling each other's doors, a type-only import included", () => {
    const root = serverTree({
      "orders/index.server.ts": 'export { cancel } from "./cancel";',
      "orders/cancel.ts": 'import { refund } from "../payments/index.server";\nexport const cancel = refund;',
      "payments/index.server.ts": 'export { refund } from "./refund";',
      "payments/refund.ts": 'import type { OrderStatus } from "@server/orders/index.server";\nexport const refund = (status: OrderStatus) => status;',
      "db/schema.ts": "export const orders = {};",
    });
    expect(floorCircles(serverFloorGraph(root)).map((circle) => circle.sort())).toEqual([["orders", "payments"]]);
  });

  it("finds a circle that runs through three domains", () => {
    const root = serverTree({
      "accounts/a.ts": 'import { x } from "../audit/index.server";',
      "audit/index.server.ts": 'import {\n  y,\n} from "../notifications/index.server";',
      "notifications/index.server.ts": 'const z = await import("../accounts/index.server");',
    });
    expect(floorCircles(serverFloorGraph(root)).map((circle) => circle.sort())).toEqual([["accounts", "audit", "notifications"]]);
  });

  it("has no circle when the flow sits one floor up and the seed above the domains it fills", () => {
    const root = serverTree({
      "order-flows/index.server.ts": 'import "../orders/index.server";\nimport "../payments/index.server";',
      "payments/refund.ts": 'import { transitionOrder } from "../orders/index.server";\nimport { payments } from "../db/schema";',
      "orders/index.server.ts": 'import { orders } from "../db/schema";',
      "db/schema.ts": "export const orders = {};",
      "db/index.server.ts": 'import { seed } from "./seed/seed";',
      "db/seed/seed.ts": 'import { hashPassword } from "../../accounts/index.server";',
      "accounts/index.server.ts": 'import { users } from "../db/schema";',
    });
    expect(floorCircles(serverFloorGraph(root))).toEqual([]);
  });

  it("puts the database's start-up above the domains and the rest of db/ below them", () => {
    expect(["db/seed/seed.ts", "db/cli/migrate.ts", "db/index.server.ts", "db/index.server"].map(floorOf)).toEqual(Array(4).fill("db/start-up"));
    expect(["db/schema/orders.ts", "db/transaction.ts", "orders/staff-order-search.ts"].map(floorOf)).toEqual(["db", "db", "orders"]);
  });

  it("the shop's own server/ folders call each other without a circle", () => {
    const server = fileURLToPath(new URL("../../server", import.meta.url));
    expect(floorCircles(serverFloorGraph(server))).toEqual([]);
  });
});
