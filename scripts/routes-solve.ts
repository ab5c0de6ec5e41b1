/**
 * `npm run --silent routes:solve -- FILE.json [--time-limit=MS] [--seed=N] [--iterations=N] [--routing-url=URL] [--check]`
 *
 * Reads a problem in issue 26's simple JSON format (FILE or `-` for standard input), optimises it
 * with the built-in solver (or the VROOM server at --routing-url) and prints the solution as JSON.
 * Without flags it searches exactly as Despacho's "Optimizar rutas" does (`standardSolveOptions`:
 * a round count set by the number of stops, the same seed, the same time cap), so the same file
 * gives the same routes on any machine; --seed, --iterations and --time-limit override them. When
 * the time cap cuts the search short it says so on standard error (decision 0093).
 * --check also verifies the answer with the feasibility checker and exits 2 if it finds a fault.
 */
import { readFileSync } from "node:fs";
import {
  checkSolution,
  simpleFromVroom,
  simpleProblemSchema,
  simpleToVroom,
  simpleTravel,
  solve,
  standardSolveOptions,
  type RoutingEngine,
} from "../server/routing/index.server";

const USAGE = "usage: npm run --silent routes:solve -- FILE.json [--time-limit=MS] [--seed=N] [--iterations=N] [--routing-url=URL] [--check]";

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

const args = process.argv.slice(2);
const flags = new Map(
  args
    .filter((arg) => arg.startsWith("--"))
    .map((arg) => {
      const [name, value] = arg.slice(2).split("=", 2);
      return [name!, value ?? "true"];
    }),
);
const files = args.filter((arg) => !arg.startsWith("--"));
for (const name of flags.keys())
  if (!["time-limit", "seed", "iterations", "routing-url", "check", "help"].includes(name)) fail(`unknown option --${name}\n${USAGE}`);
if (flags.has("help")) fail(USAGE, 0);
if (files.length !== 1) fail(USAGE);

const number = (name: string, fallback: number) => {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) fail(`--${name} must be a non-negative number`);
  return value;
};

let text: string;
try {
  text = readFileSync(files[0] === "-" ? 0 : files[0]!, "utf8");
} catch (error) {
  fail(`cannot read ${files[0]}: ${(error as Error).message}`);
}
let json: unknown;
try {
  json = JSON.parse(text);
} catch (error) {
  fail(`${files[0]} is not JSON: ${(error as Error).message}`);
}
const parsed = simpleProblemSchema.safeParse(json);
if (!parsed.success)
  fail(`${files[0]} is not a routes problem:\n${parsed.error.issues.map((issue) => `  - ${issue.path.join(".") || "(top)"}: ${issue.message}`).join("\n")}`);
const problem = parsed.data;

const routingUrl = flags.get("routing-url");
const engine: RoutingEngine = routingUrl ? { kind: "vroom", url: routingUrl, timeoutMs: 120_000 } : { kind: "built-in" };
// A VROOM server takes whole numbers and, for haversine files, gets the same travel matrix.
const vroomProblem = simpleToVroom(problem, engine.kind === "vroom" ? { integral: true, withMatrix: true } : {});
const travel = simpleTravel(problem);
try {
  const standard = standardSolveOptions(vroomProblem);
  const solution = await solve(vroomProblem, {
    engine,
    travel,
    seed: number("seed", standard.seed),
    timeLimitMs: number("time-limit", standard.timeLimitMs),
    iterations: number("iterations", standard.iterations),
  });
  process.stdout.write(`${JSON.stringify(simpleFromVroom(problem, solution))}\n`);
  const cutAt = solution.summary.search?.cutAtMs;
  if (cutAt != null) process.stderr.write(`search cut by the time cap at ${(cutAt / 1000).toFixed(1)} s: another run may differ\n`);
  if (flags.has("check")) {
    const issues = checkSolution(vroomProblem, solution, { travel });
    if (issues.length) fail(`infeasible:\n${issues.map((issue) => `  - ${JSON.stringify(issue)}`).join("\n")}`, 2);
  }
} catch (error) {
  fail(`${(error as Error).name}: ${(error as Error).message}`);
}
