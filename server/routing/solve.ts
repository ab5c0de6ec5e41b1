import { env } from "../config/env";
import { solveBuiltIn, type BuiltInOptions } from "./built-in/solve-built-in";
import { solveWithVroom } from "./vroom-client";
import type { VroomProblem, VroomSolution } from "./vroom-format";

/** Which engine answers: the built-in solver, or a VROOM server (decision 0077). */
export type RoutingEngine = { kind: "built-in" } | { kind: "vroom"; url: string; timeoutMs: number };

export interface SolveOptions extends BuiltInOptions {
  /** Default: a VROOM server when ROUTING_URL is set, the built-in solver otherwise. */
  engine?: RoutingEngine;
}

export function configuredRoutingEngine(): RoutingEngine {
  const config = env();
  return config.ROUTING_URL ? { kind: "vroom", url: config.ROUTING_URL, timeoutMs: config.ROUTING_TIMEOUT_SECONDS * 1000 } : { kind: "built-in" };
}

/**
 * Optimises routes: VROOM problem in, VROOM solution out, whichever engine answers. Every job is
 * either on a route or in `unassigned` with a `reason`. The built-in solver hands the event loop
 * back every few milliseconds, so a server keeps answering other requests meanwhile.
 */
export async function solve(problem: VroomProblem, options: SolveOptions = {}): Promise<VroomSolution> {
  const engine = options.engine ?? configuredRoutingEngine();
  if (engine.kind === "vroom") return solveWithVroom(problem, engine, options);
  return solveBuiltIn(problem, options);
}
