// The route optimiser's benchmark (issues 26 and 40, decisions 0077 and 0093): the Solomon VRPTW
// instances in bench/solomon/ with Despacho's own search options (`standardSolveOptions`: a round
// count set by the number of stops, the time only a safety cap), each answer checked by the
// feasibility checker and compared with the best-known distance; then a Lima-like day of 2 000
// deliveries.
//
//   node --import tsx bench/routes.ts                     # Solomon (seeds 1–3) and the 2 000-stop day
//   node --import tsx bench/routes.ts --only=solomon --seeds=5
//   node --import tsx bench/routes.ts --only=day --day-rounds=0,standard,60000
//   node --import tsx bench/routes.ts --record            # writes the tables into bench/RESULTS.md
//
// The machine is shared: each row says how much CPU the solve actually got (process CPU time ÷
// wall time) and the load average. The rounds do not depend on it; the wall time does.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  checkSolution,
  simpleFromVroom,
  simpleToVroom,
  solve,
  standardSolveOptions,
  type VroomProblem,
  type VroomSolution,
} from "../server/routing/index.server";
import { machine } from "./lib/fresh-database";
import { LIMA_TRAVEL, limaDay } from "./lib/lima-day";
import { readSolomon } from "./solomon/solomon";

const BENCH_DIR = import.meta.dirname;
const RESULTS = path.join(BENCH_DIR, "RESULTS.md");
const MARKERS = { start: "<!-- bench:routes — written by bench/routes.ts --record -->", end: "<!-- /bench:routes -->" };

/** SINTEF's best-known solutions (bench/solomon/README.md): vehicles, distance. */
const BEST_KNOWN: Record<string, [number, number]> = {
  c101: [10, 828.94],
  c102: [10, 828.94],
  c103: [10, 828.06],
  r101: [19, 1650.8],
  r102: [17, 1486.12],
  rc101: [14, 1696.95],
};

function flag(name: string, fallback: string): string {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

const only = flag("only", "solomon,day").split(",");
const seeds = Number(flag("seeds", "3"));
/** Rounds of the day's runs: 0 is the greedy construction alone, `standard` Despacho's count. */
const dayRounds = flag("day-rounds", "0,standard").split(",");
const record = process.argv.includes("--record");

interface Measured {
  solution: VroomSolution;
  wallMs: number;
  cpuMs: number;
  cpuShare: number;
}

async function measured(problem: VroomProblem, options: Parameters<typeof solve>[1]): Promise<Measured> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const solution = await solve(problem, { engine: { kind: "built-in" }, ...options });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  return { solution, wallMs, cpuMs, cpuShare: cpuMs / wallMs };
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" / ");
const percent = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(2)} %`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function solomon(): Promise<string[]> {
  const rows: string[] = [];
  const files = readdirSync(path.join(BENCH_DIR, "solomon"))
    .filter((name) => name.endsWith(".txt"))
    .sort();
  for (const file of files) {
    const name = file.replace(/\.txt$/, "");
    const [bestVehicles, bestDistance] = BEST_KNOWN[name] ?? [NaN, NaN];
    const instance = readSolomon(path.join(BENCH_DIR, "solomon", file));
    const problem = simpleToVroom(instance);
    const runs = [];
    for (let seed = 1; seed <= seeds; seed++) {
      const loadAtStart = load();
      const run = await measured(problem, { ...standardSolveOptions(problem), seed });
      const answer = simpleFromVroom(instance, run.solution);
      const issues = checkSolution(problem, run.solution);
      runs.push({ seed, run, answer, issues, loadAtStart });
      console.log(
        `${name} seed ${seed}: ${answer.vehicles} vehicles, ${answer.distance} (${percent(answer.distance / bestDistance - 1)}), ${seconds(run.wallMs)} (CPU ${seconds(run.cpuMs)}), ${run.solution.summary.search?.rounds} rounds${run.solution.summary.search?.cutAtMs != null ? " CUT BY TIME" : ""}, unassigned ${answer.unassigned.length}, ${issues.length ? `${issues.length} FEASIBILITY ISSUES` : "feasible"}`,
      );
    }
    const gaps = runs.map(({ answer }) => answer.distance / bestDistance - 1);
    const first = runs[0]!;
    const feasible = runs.every(({ issues, answer }) => issues.length === 0 && answer.unassigned.length === 0);
    rows.push(
      `| ${name} | ${instance.stops.length} | ${first.run.solution.summary.search?.rounds ?? "–"} | ${first.answer.vehicles} | ${first.answer.distance.toFixed(2)} | ${bestVehicles} / ${bestDistance.toFixed(2)} | ${percent(gaps[0]!)} | ${percent(Math.min(...gaps))} … ${percent(Math.max(...gaps))} | ${seconds(Math.max(...runs.map(({ run }) => run.wallMs)))} | ${seconds(Math.max(...runs.map(({ run }) => run.cpuMs)))} | ${(first.run.cpuShare * 100).toFixed(0)} % | ${feasible ? "✅" : "❌"} | ${first.loadAtStart} |`,
    );
  }
  return rows;
}

const hours = (value: number) => `${(value / 3600).toFixed(1)} h`;

async function day(): Promise<string[]> {
  const options = { deliveries: 2000, vans: 45, capacity: 150, service: 240, seed: 7 };
  const problem = limaDay(options);
  const rows: string[] = [];
  for (const choice of dayRounds) {
    const loadAtStart = load();
    // 0: the greedy construction alone (no ruin-and-recreate round), to show what the search adds.
    const standard = standardSolveOptions(problem);
    const iterations = choice === "standard" ? standard.iterations : Number(choice);
    const run = await measured(problem, { travel: LIMA_TRAVEL, ...standard, iterations });
    const { summary } = run.solution;
    const issues = checkSolution(problem, run.solution, { travel: LIMA_TRAVEL });
    const delivered = summary.delivery?.[0] ?? 0;
    console.log(
      `day ${iterations} rounds${run.solution.summary.search?.cutAtMs != null ? " (CUT BY TIME)" : ""}: driving ${hours(summary.duration)}, ${((summary.distance ?? 0) / 1000).toFixed(0)} km, ${summary.routes} vans, unassigned ${summary.unassigned}, ${seconds(run.wallMs)} (loading ${summary.computing_times?.loading} ms), CPU ${(run.cpuShare * 100).toFixed(0)} %, ${issues.length ? `${issues.length} FEASIBILITY ISSUES` : "feasible"}`,
    );
    rows.push(
      `| ${iterations === 0 ? "construction only" : `${iterations} rounds${choice === "standard" ? " (Despacho's)" : ""}`} | ${hours(summary.duration)} | ${((summary.distance ?? 0) / 1000).toFixed(0)} km | ${summary.routes} / ${options.vans} | ${delivered} | ${summary.unassigned} | ${seconds(run.wallMs)} | ${seconds(run.cpuMs)} | ${(run.cpuShare * 100).toFixed(0)} % | ${summary.search?.cutAtMs != null ? "cut by the time cap" : "work bound"} | ${issues.length === 0 ? "✅" : "❌"} | ${loadAtStart} |`,
    );
  }
  return rows;
}

/** Replaces the text between `<!-- name -->` and `<!-- /name -->` in RESULTS.md (markers added on first use, inside the routes block). */
function replaceSection(text: string, name: string, body: string): string {
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start >= 0 && end > start) return `${text.slice(0, start + open.length)}\n${body}\n${text.slice(end)}`;
  const blockEnd = text.indexOf(MARKERS.end);
  if (text.indexOf(MARKERS.start) < 0 || blockEnd < 0) throw new Error(`bench/RESULTS.md has no ${MARKERS.start} … ${MARKERS.end} block`);
  return `${text.slice(0, blockEnd)}${open}\n${body}\n${close}\n${text.slice(blockEnd)}`;
}

function writeResults(solomonRows: string[], dayRows: string[]) {
  const date = new Date().toISOString().slice(0, 10);
  let text = readFileSync(RESULTS, "utf8");
  if (solomonRows.length) {
    text = replaceSection(
      text,
      "routes:solomon",
      [
        `Run ${date} on ${machine()}; built-in solver with Despacho's options (\`standardSolveOptions\`: rounds by the number of stops, time only a safety cap), seeds 1–${seeds} (Despacho uses 1). Wall and CPU time: the slowest of the seeds.`,
        "",
        "| Instance | Customers | Rounds | Vehicles | Distance (seed 1) | Best known (vehicles / distance) | Gap (seed 1) | Gap over seeds | Wall time | CPU time | CPU share | Feasible, all served | Load average at start |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ...solomonRows,
      ].join("\n"),
    );
  }
  if (dayRows.length) {
    text = replaceSection(
      text,
      "routes:day",
      [
        `Run ${date} on ${machine()}. A Lima-like day (\`bench/lib/lima-day.ts\`, seed 7): 2 000 deliveries around 20 district centres, windows 9–13 and 14–18, 4 minutes per stop, 1–4 bidones each; 45 vans of 150 bidones, shift 8:00–19:00 from one depot; travel = haversine × 1.35 ÷ 20 km/h.`,
        "",
        "| Run | Driving time | Road distance | Vans used | Bidones delivered | Unassigned | Wall time | CPU time | CPU share | Stopped by | Feasible | Load average at start |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ...dayRows,
      ].join("\n"),
    );
  }
  writeFileSync(RESULTS, text);
}

const solomonRows = only.includes("solomon") ? await solomon() : [];
const dayRows = only.includes("day") ? await day() : [];
if (record) writeResults(solomonRows, dayRows);
