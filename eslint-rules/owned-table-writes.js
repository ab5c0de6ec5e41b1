import { relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { placeOf } from "./order-moves-above-domains.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** An import of the schema: `@server/db/schema`, `../db/schema`, `./schema/orders`, … */
const SCHEMA_SPECIFIER = /^(@server\/db\/|\.\/|(\.\.\/)+(db\/)?)schema(\/[\w-]+)?$/;
const WRITES = new Set(["insert", "update", "delete"]);

/**
 * Issue 42 (decision 0098): the order, payment, delivery and subscription tables are written
 * (`insert`, `update`, `delete`) only by the domain that owns them, or by a file the configuration
 * allow-lists for that table with its reason. Reading them stays free: many rooms show an order or
 * a delivery in their own pages and joins. Options: `{ owners: { domain: [table, …] },
 * alsoWrittenBy: { "server/…/file.ts": [table, …] } }`.
 */
/** @type {import("eslint").Rule.RuleModule} */
export const ownedTableWrites = {
  meta: {
    type: "problem",
    docs: { description: "Only the owning domain (or an allow-listed file) writes an owned table (decision 0098)." },
    schema: [
      {
        type: "object",
        properties: {
          owners: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
          alsoWrittenBy: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      write:
        "{{table}} belongs to server/{{owner}}/: write it through that domain's index.server door, or allow-list this file for it in eslint.config.js with the reason (decision 0098).",
    },
  },
  create(context) {
    const place = placeOf(ROOT, context.filename);
    if (!place) return {};
    const { owners = {}, alsoWrittenBy = {} } = context.options[0] ?? {};
    const ownerOf = new Map(Object.entries(owners).flatMap(([owner, tables]) => tables.map((table) => [table, owner])));
    const file = relative(ROOT, context.filename).split(sep).join("/");
    const allowed = new Set(alsoWrittenBy[file] ?? []);
    /** Local name → the schema table it names. */
    const tables = new Map();
    return {
      ImportDeclaration(node) {
        if (typeof node.source.value !== "string" || !SCHEMA_SPECIFIER.test(node.source.value)) return;
        for (const specifier of node.specifiers) {
          if (specifier.type === "ImportSpecifier" && ownerOf.has(specifier.imported.name)) tables.set(specifier.local.name, specifier.imported.name);
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.property.type !== "Identifier" || !WRITES.has(callee.property.name)) return;
        const [target] = node.arguments;
        if (target?.type !== "Identifier" || !tables.has(target.name)) return;
        const table = tables.get(target.name);
        const owner = ownerOf.get(table);
        if (place.floor === owner || allowed.has(table)) return;
        context.report({ node: target, messageId: "write", data: { table, owner } });
      },
    };
  },
};
