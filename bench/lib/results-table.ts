// The tables of bench/RESULTS.md that the TypeScript benches keep, each between its own markers
// (above the part run.mjs regenerates): one row per configuration, replaced by the next run of it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const RESULTS = path.join(import.meta.dirname, "..", "RESULTS.md");

export function recordRow(markers: { start: string; end: string }, row: { config: string; cells: string[] }) {
  const text = readFileSync(RESULTS, "utf8");
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`bench/RESULTS.md has no ${markers.start} … ${markers.end} block`);
  const lines = text
    .slice(start + markers.start.length, end)
    .split("\n")
    .filter((line) => line.startsWith("|"));
  const [header, rule, ...rows] = lines;
  const line = `| ${row.config} | ${row.cells.join(" | ")} |`;
  const index = rows.findIndex((existing) => existing.startsWith(`| ${row.config} |`));
  if (index >= 0) rows[index] = line;
  else rows.push(line);
  writeFileSync(RESULTS, `${text.slice(0, start + markers.start.length)}\n${[header, rule, ...rows].join("\n")}\n${text.slice(end)}`);
}
