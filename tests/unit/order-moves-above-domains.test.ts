import path from "node:path";
import { fileURLToPath } from "node:url";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import { orderMovesAboveDomains } from "../../eslint-rules/order-moves-above-domains.js";

/** Decision 0083: the lint rule that keeps an order's status moves in orders and order-flows. */
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = fileURLToPath(new URL("../..", import.meta.url));
const at = (file: string) => path.join(root, file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" } });

tester.run("order-moves-above-domains", orderMovesAboveDomains, {
  valid: [
    { filename: at("server/orders/transition.ts"), code: 'import { transitionOrder } from "./index.server";' },
    { filename: at("server/order-flows/payment-settled.ts"), code: 'import { currentDeliveryOf, transitionOrder } from "../orders/index.server";' },
    // Other names of the orders door are free to every domain and route.
    { filename: at("server/payments/settle.ts"), code: 'import { receiptToken, type OrderStatus } from "../orders/index.server";' },
    { filename: at("app/routes/admin.order.tsx"), code: 'import { orderStatusLabel } from "@server/orders/index.server";' },
    // A name of another door that happens to be transitionOrder-like is not the orders door's.
    { filename: at("server/deliveries/dispatch-actions.ts"), code: 'import { transitionDeliveries } from "./transition";' },
    // The floors above the domains call order-flows.
    { filename: at("server/jobs/run-due-jobs.ts"), code: 'import { retryDueRefunds } from "../order-flows/index.server";' },
    { filename: at("server/subscriptions/signup.ts"), code: 'import { settlePaymentInTransaction } from "../order-flows/index.server";' },
    { filename: at("app/routes/checkout/sandbox-payment.tsx"), code: 'import { applySandboxAction } from "@server/order-flows/index.server";' },
    // Tests may set an order's status up directly.
    { filename: at("tests/integration/staff-refunds.test.ts"), code: 'import { transitionOrder } from "@server/orders/index.server";' },
  ],
  invalid: [
    {
      filename: at("server/payments/settle.ts"),
      code: 'import { receiptToken, transitionOrder } from "../orders/index.server";',
      errors: [{ messageId: "transitionOrder" }],
    },
    {
      filename: at("server/payments/culqi/culqi-payments.ts"),
      code: 'import { transitionOrder as move } from "@server/orders/index.server";',
      errors: [{ messageId: "transitionOrder" }],
    },
    {
      filename: at("app/routes/admin.order.tsx"),
      code: 'import { transitionOrder } from "@server/orders/index.server";',
      errors: [{ messageId: "transitionOrder" }],
    },
    {
      filename: at("server/deliveries/index.server.ts"),
      code: 'export { transitionOrder } from "../orders/index.server";',
      errors: [{ messageId: "transitionOrder" }],
    },
    { filename: at("server/deliveries/orders.ts"), code: 'import * as orders from "../orders/index.server";', errors: [{ messageId: "namespace" }] },
    { filename: at("server/garantias/index.server.ts"), code: 'export * from "../orders/index.server";', errors: [{ messageId: "namespace" }] },
    {
      filename: at("server/deliveries/driver-confirmations.ts"),
      code: 'import { orderFollowsDeliveries } from "../order-flows/index.server";',
      errors: [{ messageId: "orderFlowsBelow", data: { floor: "server/deliveries/" } }],
    },
    {
      filename: at("server/payments/sandbox.ts"),
      code: 'import type { PaymentOrderSteps } from "@server/order-flows/index.server";',
      errors: [{ messageId: "orderFlowsBelow", data: { floor: "server/payments/" } }],
    },
  ],
});
