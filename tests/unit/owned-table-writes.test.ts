import path from "node:path";
import { fileURLToPath } from "node:url";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import { ownedTableWrites } from "../../eslint-rules/owned-table-writes.js";

/** Issue 42 (decision 0098): the order, payment, delivery and subscription tables are written by their owner only. */
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = fileURLToPath(new URL("../..", import.meta.url));
const at = (file: string) => path.join(root, file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" } });
const options = [{ owners: { orders: ["orders", "orderStatusChanges"] }, alsoWrittenBy: { "server/checkout/place-order.ts": ["orders"] } }];

tester.run("owned-table-writes", ownedTableWrites, {
  valid: [
    { filename: at("server/orders/transition.ts"), options, code: 'import { orders } from "../db/schema";\nawait db.update(orders).set({});' },
    // Reading stays free.
    { filename: at("server/deliveries/dispatch-day.ts"), options, code: 'import { orders } from "../db/schema";\nawait db.select().from(orders);' },
    // An allow-listed file, for the tables it is listed for.
    { filename: at("server/checkout/place-order.ts"), options, code: 'import { orders } from "../db/schema";\nawait tx.insert(orders).values({});' },
    // A local of the same name that is not the schema's table.
    { filename: at("server/deliveries/x.ts"), options, code: "const orders = new Map();\norders.delete(1);" },
  ],
  invalid: [
    {
      filename: at("server/deliveries/order-status.ts"),
      options,
      code: 'import { orders } from "../db/schema";\nawait tx.update(orders).set({});',
      errors: [{ messageId: "write" }],
    },
    {
      filename: at("server/checkout/place-order.ts"),
      options,
      code: 'import { orderStatusChanges as history } from "@server/db/schema";\nawait tx.insert(history).values({});',
      errors: [{ messageId: "write" }],
    },
    {
      filename: at("app/server/pages/anything.server.ts"),
      options,
      code: 'import { orders } from "@server/db/schema";\nawait db.delete(orders);',
      errors: [{ messageId: "write" }],
    },
  ],
});
