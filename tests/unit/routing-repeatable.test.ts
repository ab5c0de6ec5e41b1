import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { checkSolution, searchRounds, solve, standardSolveOptions, type VroomProblem, type VroomSolution } from "@server/routing/index.server";
import { LIMA_TRAVEL, limaDay } from "../../bench/lib/lima-day";

const builtIn = { kind: "built-in" } as const;
const stopsOf = (solution: VroomSolution) =>
  solution.routes.map((route) => [route.vehicle, route.steps.flatMap((step) => (step.type === "job" ? [step.id] : []))]);
/**
 * Despacho's rounds and seed. Its time cap is only a safety net (20 s); here it is raised so that a
 * CI machine running many files at once cannot reach it: what these tests pin is that the rounds
 * alone decide the routes.
 */
const despachoSolve = (problem: VroomProblem) =>
  solve(problem, { engine: builtIn, travel: LIMA_TRAVEL, ...standardSolveOptions(problem), timeLimitMs: 100_000 });

/** A second thread that keeps one core busy until terminated: the machine under load. */
async function spinningThread(): Promise<Worker> {
  const worker = new Worker("const end = Date.now() + 120000; while (Date.now() < end) {}", { eval: true });
  await new Promise((resolve) => worker.once("online", resolve));
  return worker;
}

// Issue 40: Despacho's plans must not depend on how busy the machine is. The bound is the rounds;
// these tests' timeout only allows for a loaded machine.
describe("the built-in solver with Despacho's options", { timeout: 120_000 }, () => {
  it("plans the same 80-stop day identically on an idle and on a busy CPU", async () => {
    const problem = limaDay({ deliveries: 80, vans: 4, capacity: 150, service: 240, seed: 11 });
    const idle = await despachoSolve(problem);
    const spinner = await spinningThread();
    let busy: VroomSolution;
    try {
      busy = await despachoSolve(problem);
    } finally {
      await spinner.terminate();
    }
    const rounds = searchRounds(80);
    expect(idle.summary.search).toEqual({ rounds, plannedRounds: rounds, cutAtMs: null });
    expect(busy.summary.search).toEqual({ rounds, plannedRounds: rounds, cutAtMs: null });
    expect(stopsOf(busy)).toEqual(stopsOf(idle));
    expect(busy.summary.cost).toBe(idle.summary.cost);
    expect(checkSolution(problem, idle, { travel: LIMA_TRAVEL })).toEqual([]);
  });

  it("says when the time cap cut the search short", async () => {
    const problem = limaDay({ deliveries: 80, vans: 4, capacity: 150, service: 240, seed: 11 });
    const solution = await solve(problem, { engine: builtIn, travel: LIMA_TRAVEL, ...standardSolveOptions(problem), timeLimitMs: 1 });
    expect(solution.summary.search!.cutAtMs).toBeGreaterThanOrEqual(1);
    expect(solution.summary.search!.rounds).toBeLessThan(searchRounds(80));
    expect(checkSolution(problem, solution, { travel: LIMA_TRAVEL })).toEqual([]);
  });

  it("bounds a 2 000-stop day by its rounds and keeps every route feasible", async () => {
    const problem = limaDay({ deliveries: 2000, vans: 45, capacity: 150, service: 240, seed: 7 });
    const solution = await despachoSolve(problem);
    expect(solution.summary.search).toEqual({ rounds: searchRounds(2000), plannedRounds: searchRounds(2000), cutAtMs: null });
    expect(solution.unassigned).toEqual([]);
    expect(checkSolution(problem, solution, { travel: LIMA_TRAVEL })).toEqual([]);
  });
});
