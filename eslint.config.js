import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { readdirSync } from "node:fs";
import { orderMovesAboveDomains } from "./eslint-rules/order-moves-above-domains.js";
import { ownedTableWrites } from "./eslint-rules/owned-table-writes.js";
import { serverDomainCycles } from "./eslint-rules/server-domain-cycles.js";

const INFRASTRUCTURE = ["db", "config"];

/** The shop's own lint rules (eslint-rules/), one plugin for every block that turns one on. */
const shopRules = {
  rules: { "server-domain-cycles": serverDomainCycles, "order-moves-above-domains": orderMovesAboveDomains, "owned-table-writes": ownedTableWrites },
};

/**
 * Doors a domain may not use even though they exist: the dependency runs the other way, and
 * using it would close an import cycle between the two doors (issue 13).
 */
const FORBIDDEN_DOORS = {
  payments: {
    domain: "subscriptions",
    message: "Payments report outcomes; the subscriptions domain uses payments, never the reverse (decision 0041).",
  },
};

/**
 * Tables with one owning domain (decision 0085): only the owner queries them; every other domain
 * (and app/) calls the owner's door. The schema defines them, the seed fills them and the
 * database client hands the whole schema to Drizzle; tests may read and write them directly.
 */
const TABLE_OWNERS = {
  content: ["siteSettings", "districts", "districtDeliveryDays"],
  // Issue 39 (decision 0088): whose phone number is whose is answered in one place.
  contacts: ["phoneProofs"],
  // Issue 38 (decision 0090): the "lo de siempre" summaries, placed exactly as shown.
  "whatsapp-orders": ["whatsappRepeatQuotes"],
};
/**
 * Issue 42 (decision 0098): the order, payment, delivery and subscription tables, written only by
 * their owner. Many rooms read them (an order's number on a delivery, a subscription's orders in
 * metrics), so reading stays free; a write from elsewhere must be allow-listed below with its reason.
 */
const TABLE_WRITERS = {
  orders: ["orders", "orderItems", "orderNotes", "orderStatusChanges"],
  payments: ["payments", "refunds", "processedWebhookEvents", "sandboxCharges", "providerErasures"],
  deliveries: ["deliveries", "deliveryProofs", "deliveryPhotos", "driverConfirmationReceipts", "bidonMovements"],
  subscriptions: ["subscriptions", "subscriptionItems", "subscriptionEvents", "subscriptionStateChanges", "paymentMethods", "subscriptionPeriods"],
};
const ALSO_WRITTEN_BY = {
  // An order is born in one transaction with its lines, its first history row, its deliveries and
  // its payment; its status moves afterwards only through orders and order-flows (decision 0083).
  "server/checkout/place-order.ts": ["orders", "orderItems", "orderStatusChanges", "deliveries", "payments"],
  // A renewal's order and payment are born the same way, inside the period's transaction.
  "server/subscriptions/renewal-orders.ts": ["orders", "orderItems", "orderStatusChanges", "payments"],
  // A subscription's deliveries are scheduled, moved to the paid date and handed back on a pause
  // under the subscription's lock (decision 0025's order: subscription before order before delivery).
  "server/subscriptions/schedule-deliveries.ts": ["deliveries"],
  "server/subscriptions/paid-deliveries.ts": ["orders"],
  "server/subscriptions/self-service/pause.ts": ["deliveries"],
  // A skip cancels the shown delivery and closes up the numbering like a pause does (decision 0020, amended).
  "server/subscriptions/self-service/skip.ts": ["deliveries"],
  // Sign-up names its first order's subscription in the same transaction that creates both.
  "server/subscriptions/signup.ts": ["orders"],
  // Order-flows sits above orders and deliveries and moves both (decision 0083).
  "server/order-flows/payment-settled.ts": ["deliveries"],
  "server/order-flows/refund-applied.ts": ["orderStatusChanges"],
  // An ended order cancels its open deliveries in the same transition.
  "server/orders/transition.ts": ["deliveries"],
  // A pin moved on the map moves the order's point and its open deliveries' together, in one transaction.
  "server/deliveries/order-location.ts": ["orders"],
  // A guest's orders attach to the account that proves their contact (decision 0072), with a history row.
  "server/accounts/guest-orders.ts": ["orders"],
  "server/accounts/order-claim.ts": ["orders", "orderStatusChanges"],
  // Ley 29733 anonymisation blanks the person's data in every table that holds it, in one
  // transaction (decision 0051).
  "server/customers/anonymise.ts": ["orders", "deliveries", "deliveryProofs", "bidonMovements"],
};
const TABLE_OWNER_EXEMPT = ["server/db/schema/**", "server/db/seed/**", "server/db/client.ts"];

/** The restrictions that keep each owned table in its owner's hands, for files outside `own`. */
function ownedTables(own) {
  return Object.entries(TABLE_OWNERS)
    .filter(([owner]) => owner !== own)
    .map(([owner, tables]) => ({
      regex: "^(@server/db/|\\./|(\\.\\./)+(db/)?)schema(/[\\w-]+)?$",
      importNames: tables,
      message: `This table belongs to server/${owner}/: read or change it through its index.server door (decision 0085).`,
    }));
}

/** One block per folder of server/: its files may reach other domains only through their door. */
function serverDomainDoors() {
  const folders = readdirSync(new URL("./server", import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const domains = folders.filter((name) => !INFRASTRUCTURE.includes(name));
  const patternsOf = (own, tables) => [
    { regex: "^~/", message: "The server imports shared rules from @core/, never from app/." },
    {
      regex: `^(\\.\\./)+(${domains.filter((name) => name !== own).join("|")})/(?!index\\.server$)`,
      message: "Use the other domain through its index.server door (conventions: a room with a door).",
    },
    ...(FORBIDDEN_DOORS[own] ? [{ regex: `^(\\.\\./)+${FORBIDDEN_DOORS[own].domain}/`, message: FORBIDDEN_DOORS[own].message }] : []),
    ...tables,
  ];
  return [
    ...folders.map((own) => ({
      files: [`server/${own}/**/*.ts`],
      rules: { "no-restricted-imports": ["error", { patterns: patternsOf(own, ownedTables(own)) }] },
    })),
    // The schema, the seed and the client keep their folder's doors, without the owned tables.
    { files: TABLE_OWNER_EXEMPT, rules: { "no-restricted-imports": ["error", { patterns: patternsOf("db", []) }] } },
  ];
}

export default tseslint.config(
  // bench/bare-rr is the bare React Router page the benchmarks compare against: kept as the template made it.
  { ignores: ["build/", ".react-router/", "node_modules/", "bench/node_modules/", "bench/.tmp/", "bench/bare-rr/", ".data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // `import { type X } from door` still loads the door at run time: in a browser module that
      // pulls server code into the bundle (only the build noticed). All-type imports are `import type`.
      "@typescript-eslint/no-import-type-side-effects": "error",
    },
  },
  {
    // Issue 13: a promise nobody awaits loses its error (an unhandled rejection, or a write that
    // silently did not happen), and a promise handed where a void callback is expected is not
    // awaited by its caller. Both need the types, so the whole project is read through the
    // TypeScript project service (decision 0042).
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      // React's event props accept a handler returning a promise and ignore it; the handlers
      // themselves catch what they can fail on.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // Route modules and components reach the server only through a domain's `index.server` door,
    // which React Router refuses to bundle for the browser.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.server.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "^@server/(?!.+/index\\.server$)", message: "Import server code through a domain's index.server door." }],
          // Issue 9: core/zod.ts sets the Spanish messages; importing zod directly skips them.
          paths: [{ name: "zod", message: 'Import { z } from "@core/zod" (Spanish messages).' }],
        },
      ],
    },
  },
  {
    // Decision 0025: every top-level transaction goes through inTransaction, which retries what
    // PostgreSQL aborts as a deadlock or serialization failure.
    files: ["server/**/*.ts"],
    ignores: ["server/db/transaction.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='transaction'][callee.object.name='db']",
          message: "Use inTransaction(db, …) from server/db/transaction.ts (decision 0025).",
        },
      ],
    },
  },
  {
    // Issue 13: the ground floor (core/) holds the pure rules both sides share and imports nothing
    // of ours above it: no UI, no server, no React.
    files: ["core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^(~|@server)/", message: "core/ imports nothing above it (app/ or server/)." },
            { regex: "^\\.\\./", message: "core/ imports nothing above it." },
            { regex: "^react", message: "core/ holds pure rules, no React." },
          ],
          paths: [{ name: "zod", message: 'Import { z } from "./zod" (Spanish messages).' }],
        },
      ],
    },
  },
  {
    // Decision 0073: every request body is read through app/server/request-body.server.ts, which bounds
    // it (declared length, then counted bytes) before it is read.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/server/request-body.server.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.object.name='request'][callee.property.name=/^(formData|json|text|arrayBuffer|blob|bytes)$/]",
          message: "Read the body with readFormData/readJson/readText from ~/server/request-body.server (bounded, decision 0073).",
        },
        {
          selector: "MemberExpression[object.name='request'][property.name='body']",
          message: "Read the body with readFormData/readJson/readText from ~/server/request-body.server (bounded, decision 0073).",
        },
      ],
    },
  },
  // Issue 13: a server domain uses another only through its index.server door (db/ and config/ are
  // the shared infrastructure, not domains), and the server never imports the UI folder.
  ...serverDomainDoors(),
  {
    // Decision 0085: app/'s server modules use owned tables through their owner's door too (the
    // other app/ files reach the server only through doors, above).
    files: ["app/**/*.server.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: ownedTables(null) }] },
  },
  {
    // Decision 0083: the folders of server/ call each other without circles. A flow that needs two
    // domains lives one floor up (server/order-flows/), or one side reports an outcome.
    files: ["server/**/*.ts"],
    plugins: { shop: shopRules },
    rules: { "shop/server-domain-cycles": "error" },
  },
  {
    // Decision 0083: an order's status moves only in server/orders/ and server/order-flows/
    // (transitionOrder is imported nowhere else, routes included), and no domain imports order-flows.
    files: ["server/**/*.ts", "app/**/*.{ts,tsx}"],
    plugins: { shop: shopRules },
    rules: { "shop/order-moves-above-domains": "error" },
  },
  {
    // Issue 42 (decision 0098): the order, payment, delivery and subscription tables are written by
    // their owner or an allow-listed file only (tests set their data up directly).
    files: ["server/**/*.ts", "app/**/*.{ts,tsx}"],
    ignores: TABLE_OWNER_EXEMPT,
    plugins: { shop: shopRules },
    rules: { "shop/owned-table-writes": ["error", { owners: TABLE_WRITERS, alsoWrittenBy: ALSO_WRITTEN_BY }] },
  },
  {
    files: ["core/zod.ts", "core/zod-without-eval.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // Decision 0084: the root of app/ keeps the framework's files (root.tsx, routes.ts,
    // entry.server.tsx, app.css). Server-only glue goes to app/server/ (request plumbing, or what
    // several areas share), beside its route in app/routes/<area>/ (one screen's glue, decision
    // 0100), or into its domain in server/.
    files: ["app/*.server.{ts,tsx}"],
    ignores: ["app/entry.server.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Program",
          message:
            "No *.server file at the root of app/: request plumbing goes to app/server/, a page's glue beside its route in app/routes/<area>/ (decisions 0084, 0100).",
        },
      ],
    },
  },
  {
    // Decision 0100: app/routes/ is in folders by area (storefront, checkout, account, api,
    // resources, admin/<area>), a screen's server glue beside its route; nothing lies loose at its
    // root, and app/server/pages/ is not brought back.
    files: ["app/routes/*.{ts,tsx}", "app/server/pages/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Program",
          message:
            "Routes live in app/routes/<area>/ (storefront, checkout, account, api, resources, admin/<area>), a screen's glue beside its route (decision 0100).",
        },
      ],
    },
  },
);
