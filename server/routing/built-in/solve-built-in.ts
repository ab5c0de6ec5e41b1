import { buildModel, type ModelOptions } from "../model";
import { solutionOf } from "../solution-output";
import type { VroomProblem, VroomSolution } from "../vroom-format";
import { search } from "./search";

export interface BuiltInOptions extends ModelOptions {
  /** Same seed, same problem, same iteration count: same routes (default 1). */
  seed?: number;
  /** Upper bound on the search's wall-clock time (default 2 000 ms). */
  timeLimitMs?: number;
  /** Upper bound on ruin-and-recreate rounds (default: none, the time limit decides). */
  iterations?: number;
  /** How often a long solve hands the event loop back (default 25 ms). */
  yieldEveryMs?: number;
  signal?: AbortSignal;
}

export const DEFAULT_TIME_LIMIT_MS = 2_000;

/** The built-in solver behind the door: VROOM problem in, VROOM solution out (decision 0077). */
export async function solveBuiltIn(problem: VroomProblem, options: BuiltInOptions = {}): Promise<VroomSolution> {
  const started = performance.now();
  const model = buildModel(problem, options);
  const loaded = performance.now();
  const result = await search(model, {
    seed: options.seed ?? 1,
    iterations: options.iterations ?? Infinity,
    timeLimitMs: options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
    startedAt: started,
    yieldEveryMs: options.yieldEveryMs ?? 25,
    signal: options.signal,
  });
  const solved = performance.now();
  return solutionOf(model, result.routes, result.unassigned, { loading: loaded - started, solving: solved - loaded });
}
