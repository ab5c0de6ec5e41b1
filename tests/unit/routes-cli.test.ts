import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simpleFromVroom, simpleToVroom, solve, standardSolveOptions, type VroomProblem } from "@server/routing/index.server";
import { readSolomon } from "../../bench/solomon/solomon";
import { startVroomStandIn, type VroomStandIn } from "../support/vroom-stand-in";

const run = promisify(execFile);
const root = path.join(import.meta.dirname, "../..");
const folder = mkdtempSync(path.join(tmpdir(), "routes-cli-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const at = path.join(folder, name);
  writeFileSync(at, JSON.stringify(content));
  return at;
}

type Outcome = { code: number; stdout: string; stderr: string };

/** `npm run --silent routes:solve -- …` as a person types it; resolves with the exit code too. */
async function routesSolve(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run("npm", ["run", "--silent", "routes:solve", "--", ...args], { cwd: root, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as Outcome;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const r101 = readSolomon(path.join(root, "bench/solomon/r101.txt"));
const euclidean = { ...r101, stops: r101.stops.slice(0, 30) };
/** Ten stops: quick even when many test files share the machine, and another seed routes them otherwise. */
const small = { ...r101, stops: r101.stops.slice(0, 10) };
const haversine = {
  metric: "haversine",
  speedKmh: 25,
  detour: 1.3,
  depot: { lat: -12.075, lng: -76.995 },
  depotWindow: [0, 600],
  vehicles: { count: 2, capacity: 10 },
  stops: [
    { id: "miraflores", lat: -12.121, lng: -77.03, demand: 3, window: [60, 240], service: 5 },
    { id: "san-isidro", lat: -12.097, lng: -77.037, demand: 4, window: [60, 240], service: 5 },
    { id: "cercado", lat: -12.046, lng: -77.043, demand: 11, service: 5 },
  ],
};

// Each run starts npm and tsx (seconds on a loaded machine): the three run at once, before the tests.
const outcomes: Record<"euclidean" | "haversine" | "malformed" | "vroom" | "standard", Outcome> = {} as never;
let vroom: VroomStandIn;
beforeAll(async () => {
  vroom = await startVroomStandIn();
  const [first, second, third, fourth, fifth] = await Promise.all([
    routesSolve(file("r101-30.json", euclidean), "--iterations=300", "--check"),
    routesSolve(file("lima.json", haversine), "--check", "--seed=3"),
    routesSolve(file("bad.json", { metric: "manhattan", depot: { x: 0, y: 0 }, vehicles: { count: 1, capacity: 1 }, stops: [] })),
    routesSolve(file("r101-30-vroom.json", euclidean), `--routing-url=${vroom.url}`, "--check"),
    routesSolve(file("r101-10-standard.json", small)),
  ]);
  Object.assign(outcomes, { euclidean: first, haversine: second, malformed: third, vroom: fourth, standard: fifth });
}, 180_000);
afterAll(() => vroom.close());

type Answer = { routes: { stops: string[]; distance: number }[]; distance: number; vehicles: number; unassigned: string[] };

describe("npm run routes:solve", () => {
  it("searches exactly as Despacho does without flags: the same routes as the shared options give in-process (issue 40)", async () => {
    const { code, stdout, stderr } = outcomes.standard;
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const problem = simpleToVroom(small as Parameters<typeof simpleToVroom>[0]);
    const despacho = await solve(problem, { engine: { kind: "built-in" }, ...standardSolveOptions(problem) });
    expect(despacho.summary.search?.cutAtMs).toBeNull();
    const answer = (solution: typeof despacho) => JSON.parse(JSON.stringify(simpleFromVroom(small as Parameters<typeof simpleFromVroom>[0], solution)));
    expect(JSON.parse(stdout)).toEqual(answer(despacho));
    // Other options route this file otherwise: the comparison above tells them apart.
    const otherSeed = await solve(problem, { engine: { kind: "built-in" }, ...standardSolveOptions(problem), seed: 2 });
    expect(answer(otherSeed)).not.toEqual(answer(despacho));
  });

  it("solves a Euclidean file and prints the issue's solution JSON, checked feasible", () => {
    const { code, stdout, stderr } = outcomes.euclidean;
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const solution = JSON.parse(stdout) as Answer;
    expect(Object.keys(solution).sort()).toEqual(["distance", "routes", "unassigned", "vehicles"]);
    expect(solution.vehicles).toBe(solution.routes.length);
    expect(solution.routes.flatMap((route) => route.stops).sort()).toEqual(euclidean.stops.map((stop) => stop.id).sort());
    expect(solution.distance).toBeCloseTo(
      solution.routes.reduce((total, route) => total + route.distance, 0),
      3,
    );
  });

  it("solves a haversine file in minutes and lists the stop no van can carry as unassigned", () => {
    const { code, stdout, stderr } = outcomes.haversine;
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const solution = JSON.parse(stdout) as Answer;
    expect(solution.unassigned).toEqual(["cercado"]);
    expect(solution.routes.flatMap((route) => route.stops).sort()).toEqual(["miraflores", "san-isidro"]);
    // Both fit in one van: depot → two nearby districts → depot is some 15–25 road km.
    expect(solution.vehicles).toBe(1);
    expect(solution.distance).toBeGreaterThan(10);
    expect(solution.distance).toBeLessThan(30);
  });

  it("refuses a malformed problem with a message naming the fields, and prints nothing on stdout", () => {
    const { code, stdout, stderr } = outcomes.malformed;
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/is not a routes problem/);
    expect(stderr).toMatch(/metric/);
    expect(stderr).toMatch(/depotWindow/);
  });

  it("asks the VROOM server at --routing-url, in whole numbers, and prints its answer in the same format", () => {
    const { code, stdout, stderr } = outcomes.vroom;
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const sent = vroom.requests[0] as VroomProblem;
    // Euclidean times × 1000, travel rounded up: 1 → 0 is √((35−41)² + (35−49)²) = 15.23… → 15 232.
    expect(sent.matrices!.car!.durations![0]![1]).toBe(Math.ceil(Math.hypot(35 - 41, 35 - 49) * 1000));
    expect(sent.matrices!.car!.durations!.flat().every(Number.isInteger)).toBe(true);
    const solution = JSON.parse(stdout) as Answer;
    expect([...solution.routes.flatMap((route) => route.stops), ...solution.unassigned].sort()).toEqual(euclidean.stops.map((stop) => stop.id).sort());
  });
});
