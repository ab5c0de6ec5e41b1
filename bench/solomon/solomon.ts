import { readFileSync } from "node:fs";
import type { SimpleProblem } from "../../server/routing/simple-format";

/**
 * Reads a Solomon VRPTW instance (bench/solomon/README.md) as the simple problem format:
 * Euclidean, the depot's window as the day, the fleet of the file, one stop per customer.
 */
export function parseSolomon(text: string): SimpleProblem {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const fleetAt = lines.findIndex((line) => line.startsWith("NUMBER"));
  const [count, capacity] = lines[fleetAt + 1]!.split(/\s+/).map(Number);
  const rows = lines
    .slice(lines.findIndex((line) => line.startsWith("CUST")) + 1)
    .filter((line) => /^\d/.test(line))
    .map((line) => line.split(/\s+/).map(Number));
  const [depot, ...customers] = rows;
  if (!depot || count === undefined || capacity === undefined) throw new Error("not a Solomon instance");
  return {
    metric: "euclidean",
    depot: { x: depot[1]!, y: depot[2]! },
    depotWindow: [depot[4]!, depot[5]!],
    vehicles: { count, capacity },
    stops: customers.map(([number, x, y, demand, ready, due, service]) => ({
      id: String(number),
      x: x!,
      y: y!,
      demand: demand!,
      window: [ready!, due!],
      service: service!,
    })),
  };
}

export function readSolomon(path: string): SimpleProblem {
  return parseSolomon(readFileSync(path, "utf8"));
}
