import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SERVER_DIR = fileURLToPath(new URL("../server", import.meta.url));

/**
 * Decision 0083: the folders of server/ form a graph without circles. An import of another folder
 * (a domain's door, db/ or config/), type-only or not, is an edge; a circle of edges means a change
 * in one domain can ripple back into itself. db/ is the floor every domain stands on, except what
 * opens the process's database (db/index.server.ts, the migrate command in db/cli/) and seeds it
 * (db/seed/, which builds demo data through the domains' doors): that start-up sits above them.
 */

const IMPORT_SPECIFIER = /\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g;

/** The floor a file of server/ belongs to: its first folder, or "db/start-up" for the database's start-up. */
export function floorOf(pathInServer) {
  const parts = pathInServer.replace(/\.(ts|tsx|js|mjs)$/, "").split(/[\\/]/);
  if (parts[0] === "db" && (parts[1] === "seed" || parts[1] === "cli" || (parts[1] === "index.server" && parts.length === 2))) return "db/start-up";
  return parts[0];
}

/** The floor an import specifier written in `file` points at, or null when it leaves server/. */
export function importedFloor(serverDir, file, specifier) {
  if (specifier.startsWith("@server/")) return floorOf(specifier.slice("@server/".length));
  if (!specifier.startsWith(".")) return null;
  const target = relative(serverDir, resolve(dirname(file), specifier));
  return target.startsWith("..") ? null : floorOf(target);
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Edges between the floors of server/, read from the text of every file (one pass, ~350 files). */
export function serverFloorGraph(serverDir) {
  const edges = new Map();
  for (const file of sourceFiles(serverDir)) {
    const own = floorOf(relative(serverDir, file));
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT_SPECIFIER)) {
      const target = importedFloor(serverDir, file, specifier);
      if (!target || target === own) continue;
      if (!edges.has(own)) edges.set(own, new Set());
      edges.get(own).add(target);
    }
  }
  return edges;
}

/** Strongly connected components with more than one floor (Tarjan): each is a circle. */
export function floorCircles(edges) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (floor) => {
    index.set(floor, counter);
    low.set(floor, counter);
    counter += 1;
    stack.push(floor);
    onStack.add(floor);
    for (const next of edges.get(floor) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(floor, Math.min(low.get(floor), low.get(next)));
      } else if (onStack.has(next)) low.set(floor, Math.min(low.get(floor), index.get(next)));
    }
    if (low.get(floor) !== index.get(floor)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== floor);
    if (component.length > 1) circles.push(component);
  };
  for (const floor of edges.keys()) if (!index.has(floor)) visit(floor);
  return circles;
}

/** The shortest way back from `from` to `to` inside one circle, for the message. */
function pathBack(edges, circle, from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const floor = queue.shift();
    if (floor === to) break;
    for (const next of edges.get(floor) ?? []) {
      if (circle.has(next) && !previous.has(next)) {
        previous.set(next, floor);
        queue.push(next);
      }
    }
  }
  const path = [];
  for (let floor = to; floor !== null && floor !== undefined; floor = previous.get(floor)) path.unshift(floor);
  return path;
}

const graphs = new Map();

/** @type {import("eslint").Rule.RuleModule} */
export const serverDomainCycles = {
  meta: {
    type: "problem",
    docs: { description: "Server domains import each other without circles (decision 0083)." },
    schema: [],
    messages: {
      circle:
        "This import closes a circle between server domains: {{path}}. Move the flow one floor up (a use-case module such as server/order-flows/) or let one side report an outcome the other reacts to (decision 0083).",
    },
  },
  create(context) {
    const file = context.filename;
    const serverDir = SERVER_DIR;
    if (!file.startsWith(serverDir + sep)) return {};
    // One lint run reads the tree once; every file of server/ shares the graph.
    if (!graphs.has(serverDir)) {
      const edges = serverFloorGraph(serverDir);
      graphs.set(serverDir, { edges, circles: floorCircles(edges).map((circle) => new Set(circle)) });
    }
    const { edges, circles } = graphs.get(serverDir);
    if (circles.length === 0) return {};
    const own = floorOf(relative(serverDir, file));
    const check = (node) => {
      if (!node.source || typeof node.source.value !== "string") return;
      const target = importedFloor(serverDir, file, node.source.value);
      if (!target || target === own) return;
      const circle = circles.find((members) => members.has(own) && members.has(target));
      if (!circle) return;
      context.report({ node: node.source, messageId: "circle", data: { path: [own, ...pathBack(edges, circle, target, own)].join(" → ") } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
