import { relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { floorOf, importedFloor } from "./server-domain-cycles.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Decision 0083: an order's status moves in orders itself and in the flows one floor above the
 * domains (server/order-flows/), never from inside payments, deliveries or another domain, and
 * never from a route. So `transitionOrder`, from the orders door, may be imported only there.
 * And order-flows stays above the domains: a domain that imports it would put the flow below
 * itself; the floors that may are listed with their reason (the jobs and the database's start-up
 * call every domain; subscriptions' sign-up settles its first order inside its own transaction).
 */
export const TRANSITION_ORDER_FLOORS = ["orders", "order-flows"];
export const ORDER_FLOWS_IMPORTERS = ["jobs", "db/start-up", "subscriptions"];

/** Where a file of the project stands: a floor of server/, "app", or null for anything else. */
export function placeOf(root, file) {
  const path = relative(root, file).split(sep).join("/");
  if (path.startsWith("server/")) return { kind: "server", floor: floorOf(path.slice("server/".length)) };
  if (path.startsWith("app/")) return { kind: "app", floor: "app" };
  return null;
}

/** The floor of server/ an import specifier written in `file` points at, or null. */
function targetFloor(root, file, specifier) {
  if (specifier.startsWith("@server/")) return floorOf(specifier.slice("@server/".length));
  return importedFloor(`${root}server`, file, specifier);
}

/** @type {import("eslint").Rule.RuleModule} */
export const orderMovesAboveDomains = {
  meta: {
    type: "problem",
    docs: { description: "Only orders and order-flows move an order's status; no domain imports order-flows (decision 0083)." },
    schema: [],
    messages: {
      transitionOrder:
        "transitionOrder moves an order's status: only server/orders/ and server/order-flows/ call it. Move the order's step to a flow in server/order-flows/ and pass it in (e.g. PaymentOrderSteps), or call order-flows' entry point (decision 0083).",
      namespace:
        "Import the orders door's functions by name here, so the lint can see that transitionOrder stays in server/orders/ and server/order-flows/ (decision 0083).",
      orderFlowsBelow:
        "server/order-flows/ sits above the domains: {{floor}} may not import it. Take the order's step as an argument that order-flows passes in (decision 0083).",
    },
  },
  create(context) {
    const place = placeOf(ROOT, context.filename);
    if (!place) return {};
    const file = context.filename;
    const check = (node) => {
      if (!node.source || typeof node.source.value !== "string") return;
      const target = targetFloor(ROOT, file, node.source.value);
      if (target === "order-flows" && place.kind === "server" && place.floor !== "order-flows" && !ORDER_FLOWS_IMPORTERS.includes(place.floor)) {
        context.report({ node: node.source, messageId: "orderFlowsBelow", data: { floor: `server/${place.floor}/` } });
      }
      if (target !== "orders" || TRANSITION_ORDER_FLOORS.includes(place.floor)) return;
      if (node.type === "ExportAllDeclaration") return context.report({ node: node.source, messageId: "namespace" });
      for (const specifier of node.specifiers ?? []) {
        if (specifier.type === "ImportNamespaceSpecifier") context.report({ node: specifier, messageId: "namespace" });
        const name = specifier.type === "ImportSpecifier" ? specifier.imported : specifier.type === "ExportSpecifier" ? specifier.local : null;
        if (name && (name.name ?? name.value) === "transitionOrder") context.report({ node: specifier, messageId: "transitionOrder" });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
