import type { VroomProblem } from "../vroom-format";

/**
 * How much the built-in solver searches (issue 40, decision 0093). A search bounded by wall time
 * gives different routes on a busy machine (an 80-stop day got through 9 809 and 6 937 rounds in two
 * runs), so the bound is a round count that depends only on the problem's size, sized so a day
 * finishes within 2 s of one core of this project's machines (bench/RESULTS.md, "Routes"): a
 * round costs about 50 µs plus 0.1 µs per stop. The wall time is only a safety cap; when it cuts the
 * search short the solution's `summary.search.cutAtMs` says so and Despacho shows it.
 */
export const ROUND_BUDGET = 30_000;

/** The rounds for a problem of `jobCount` stops: 25 300 for 80, 24 400 for 100, 5 400 for 2 000. */
export function searchRounds(jobCount: number): number {
  return Math.floor((ROUND_BUDGET * 1000) / (1000 + 2.3 * jobCount));
}

/** The safety cap on wall time: a 2 s search at a third of a core, with room to spare. */
export const SOLVE_TIME_CAP_MS = 20_000;

/**
 * The one set of options Despacho's "Optimizar rutas", `npm run routes:solve` and the benchmark
 * give the built-in solver, so what the command line prints is what Despacho would plan.
 */
export function standardSolveOptions(problem: VroomProblem): { seed: number; iterations: number; timeLimitMs: number } {
  return { seed: 1, iterations: searchRounds(problem.jobs?.length ?? 0), timeLimitMs: SOLVE_TIME_CAP_MS };
}
