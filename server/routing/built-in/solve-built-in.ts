import { buildModel, type ModelOptions } from "../model";
import { solutionOf } from "../solution-output";
import type { VroomProblem, VroomSolution } from "../vroom-format";
import { search } from "./search";
import { searchRounds, SOLVE_TIME_CAP_MS } from "./search-budget";

export interface BuiltInOptions extends ModelOptions {
  /** Default 1. */
  seed?: number;
  /**
   * Ruin-and-recreate rounds: the search's work bound (default `searchRounds(jobs)`). Same problem,
   * seed and rounds: same routes on any machine and load, as long as the time cap did not cut it.
   */
  iterations?: number;
  /** Safety cap in ms from the call (default SOLVE_TIME_CAP_MS); when it cuts the rounds short the summary says so. */
  timeLimitMs?: number;
  /** How often a long solve hands the event loop back (default 25 ms). */
  yieldEveryMs?: number;
  signal?: AbortSignal;
}

/** The built-in solver behind the door: VROOM problem in, VROOM solution out (decision 0077). */
export async function solveBuiltIn(problem: VroomProblem, options: BuiltInOptions = {}): Promise<VroomSolution> {
  const started = performance.now();
  const model = buildModel(problem, options);
  const loaded = performance.now();
  const result = await search(model, {
    seed: options.seed ?? 1,
    iterations: options.iterations ?? searchRounds(model.jobCount),
    timeLimitMs: options.timeLimitMs ?? SOLVE_TIME_CAP_MS,
    startedAt: started,
    yieldEveryMs: options.yieldEveryMs ?? 25,
    signal: options.signal,
  });
  const solved = performance.now();
  return solutionOf(model, result.routes, result.unassigned, {
    loading: loaded - started,
    solving: solved - loaded,
    search: { rounds: result.iterations, plannedRounds: result.plannedIterations, cutAtMs: result.cutAtMs === null ? null : Math.round(result.cutAtMs) },
  });
}
