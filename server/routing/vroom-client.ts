import { buildModel, type ModelOptions } from "./model";
import { unassignedReason } from "./unassigned-reasons";
import { vroomSolutionSchema, type VroomProblem, type VroomSolution } from "./vroom-format";

/**
 * The VROOM adapter: the same problem POSTed as JSON to a VROOM HTTP server (vroom-express's API:
 * `POST /` with the problem, the solution back with `code` 0; 400 with code 2 for an input error,
 * 500 for internal/routing errors, 413 for too many locations). VROOM only takes whole numbers,
 * so fractional times are rounded the safe way first; unassigned tasks get our reasons after.
 */

export interface VroomServer {
  url: string;
  timeoutMs: number;
}

export class RoutingEngineError extends Error {
  override name = "RoutingEngineError";
  constructor(
    message: string,
    readonly status?: number,
    readonly vroomCode?: number,
  ) {
    super(message);
  }
}

export interface VroomRequestOptions extends ModelOptions {
  signal?: AbortSignal;
  /** Passed as vroom-express's `options.l` (seconds), which the server applies only if it allows that override. */
  timeLimitMs?: number;
}

const up = (value: number | undefined) => (value === undefined ? undefined : Math.ceil(value));
const integralWindow = ([open, close]: [number, number]): [number, number] => [Math.ceil(open), Math.floor(close)];
const integralMatrix = (rows: number[][] | undefined) => rows?.map((row) => row.map((value) => Math.ceil(value)));

/** Whole numbers everywhere VROOM wants them: travel and service rounded up, windows rounded inwards. */
export function integralProblem(problem: VroomProblem): VroomProblem {
  return {
    ...problem,
    jobs: problem.jobs?.map((job) => ({ ...job, setup: up(job.setup), service: up(job.service), time_windows: job.time_windows?.map(integralWindow) })),
    vehicles: problem.vehicles.map((vehicle) => ({ ...vehicle, time_window: vehicle.time_window && integralWindow(vehicle.time_window) })),
    matrices:
      problem.matrices &&
      Object.fromEntries(
        Object.entries(problem.matrices).map(([profile, matrices]) => [
          profile,
          { durations: integralMatrix(matrices.durations), distances: integralMatrix(matrices.distances), costs: integralMatrix(matrices.costs) },
        ]),
      ),
    matrix: integralMatrix(problem.matrix),
  };
}

export async function solveWithVroom(problem: VroomProblem, server: VroomServer, options: VroomRequestOptions = {}): Promise<VroomSolution> {
  const timeout = AbortSignal.timeout(server.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const body = integralProblem(problem);
  if (options.timeLimitMs !== undefined) body.options = { ...body.options, l: Math.max(1, Math.floor(options.timeLimitMs / 1000)) };
  let response: Response;
  try {
    response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    const why = timeout.aborted ? `no answer within ${server.timeoutMs} ms` : (error as Error).message;
    throw new RoutingEngineError(`the VROOM server at ${server.url} could not be reached: ${why}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RoutingEngineError(`the VROOM server answered ${response.status} with no JSON`, response.status);
  }
  const code = (json as { code?: unknown }).code;
  if (!response.ok || code !== 0) {
    const message = (json as { error?: unknown }).error;
    throw new RoutingEngineError(
      `the VROOM server refused the problem (HTTP ${response.status}, code ${String(code)}): ${String(message ?? "no message")}`,
      response.status,
      typeof code === "number" ? code : undefined,
    );
  }
  const parsed = vroomSolutionSchema.safeParse(json);
  if (!parsed.success)
    throw new RoutingEngineError(`the VROOM server's answer is not a VROOM solution: ${parsed.error.issues[0]?.message ?? ""}`, response.status);
  return withReasons(problem, parsed.data, options);
}

/** VROOM lists unassigned tasks without saying why; ours says, the same way for both engines. */
function withReasons(problem: VroomProblem, solution: VroomSolution, options: ModelOptions): VroomSolution {
  if (solution.unassigned.length === 0) return solution;
  const model = buildModel(problem, { ...options, allowUnsupported: true });
  const positions = new Map(model.jobs.map((job, position) => [job.id, position]));
  return {
    ...solution,
    unassigned: solution.unassigned.map((task) => {
      const position = task.type === "job" ? positions.get(task.id) : undefined;
      return { ...task, reason: position === undefined ? "fleet_full" : unassignedReason(model, position) };
    }),
  };
}
