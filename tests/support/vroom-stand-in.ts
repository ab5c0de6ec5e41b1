/**
 * A local stand-in for a VROOM server (vroom-express in front of vroom; the format is
 * github.com/VROOM-Project/vroom/blob/master/docs/API.md): `POST /` with a problem, a solution back in VROOM's format. Its "solver" is a
 * deliberately plain first-fit in job order (it is a stand-in for the format, not for VROOM's
 * quality), with VROOM's own strictness where the shop could get it wrong: matrices and times must
 * be whole numbers, vehicles and jobs must be there. Without matrices it plays OSRM with
 * straight lines at 30 km/h. Modes: ok; input-error (400, code 2); internal-error (500, code 1);
 * slow (answers after `slowMs`); not-json (a proxy's HTML error page); overloads (a faulty engine
 * that ignores capacities, windows and shifts: its answer is well-formed and infeasible).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type VroomStandInMode = "ok" | "input-error" | "internal-error" | "slow" | "not-json" | "overloads";

export interface VroomStandIn {
  url: string;
  mode: VroomStandInMode;
  slowMs: number;
  /** Every problem received, parsed. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

type Job = {
  id: number;
  skills?: number[];
  location?: [number, number];
  location_index?: number;
  service?: number;
  setup?: number;
  delivery?: number[];
  pickup?: number[];
  time_windows?: [number, number][];
  description?: string;
};
type Vehicle = {
  id: number;
  skills?: number[];
  speed_factor?: number;
  start?: [number, number];
  start_index?: number;
  end?: [number, number];
  end_index?: number;
  capacity?: number[];
  time_window?: [number, number];
  description?: string;
};
type Problem = { vehicles?: Vehicle[]; jobs?: Job[]; shipments?: unknown[]; matrices?: Record<string, { durations?: number[][] }>; matrix?: number[][] };

class InputError extends Error {}

const OSRM_STAND_IN_KMH = 30;

function straightLineSeconds(a: [number, number], b: [number, number]): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const h = Math.sin(radians(b[1] - a[1]) / 2) ** 2 + Math.cos(radians(a[1])) * Math.cos(radians(b[1])) * Math.sin(radians(b[0] - a[0]) / 2) ** 2;
  const km = 2 * 6371 * Math.asin(Math.sqrt(h));
  return Math.round((km / OSRM_STAND_IN_KMH) * 3600);
}

function wholeNumbers(values: unknown[], what: string) {
  for (const value of values) if (typeof value === "number" && !Number.isInteger(value)) throw new InputError(`Invalid ${what} value: ${value}.`);
}

function firstFit(problem: Problem, faulty = false) {
  const jobs = problem.jobs ?? [];
  const matrix = problem.matrices?.car?.durations ?? problem.matrix;
  if (matrix) wholeNumbers(matrix.flat(), "matrix");
  for (const job of jobs) wholeNumbers([job.service, job.setup, ...(job.time_windows ?? []).flat()], "job");
  for (const vehicle of problem.vehicles!) wholeNumbers(vehicle.time_window ?? [], "time_window");
  type Place = { index?: number; coordinates?: [number, number] };
  const travelFor = (vehicle: Vehicle) => (a: Place | undefined, b: Place | undefined) => {
    if (!a || !b) return 0;
    if (matrix) return matrix[a.index!]![b.index!]! / (vehicle.speed_factor ?? 1);
    if (!a.coordinates || !b.coordinates) throw new InputError("Missing location.");
    return straightLineSeconds(a.coordinates, b.coordinates) / (vehicle.speed_factor ?? 1);
  };
  const placeOf = (job: Job): Place => ({ index: job.location_index, coordinates: job.location });
  const left = new Set(jobs.map((job) => job.id));
  const routes: {
    vehicle: number;
    steps: Record<string, unknown>[];
    cost: number;
    setup: number;
    service: number;
    duration: number;
    waiting_time: number;
    priority: number;
    violations: [];
    description?: string;
  }[] = [];
  for (const vehicle of problem.vehicles!) {
    const travel = travelFor(vehicle);
    const skills = new Set(vehicle.skills ?? []);
    const start: Place | undefined =
      vehicle.start_index !== undefined || vehicle.start ? { index: vehicle.start_index, coordinates: vehicle.start } : undefined;
    const end: Place | undefined = vehicle.end_index !== undefined || vehicle.end ? { index: vehicle.end_index, coordinates: vehicle.end } : undefined;
    const [open, close] = vehicle.time_window ?? [0, Number.MAX_SAFE_INTEGER];
    const capacity = vehicle.capacity ?? [];
    const taken: Job[] = [];
    const timeline = (order: Job[]) => {
      let time = open;
      let here = start;
      const steps = [];
      let travelled = 0;
      for (const job of order) {
        const drive = travel(here, placeOf(job));
        travelled += drive;
        const arrival = time + drive;
        const window = (job.time_windows ?? [[0, Number.MAX_SAFE_INTEGER]]).find(([, due]) => arrival <= due) ?? (faulty ? [arrival, arrival] : undefined);
        if (!window) return null;
        const begin = Math.max(arrival, window[0]);
        steps.push({ job, arrival, waiting: begin - arrival, travelled });
        time = begin + (job.setup ?? 0) + (job.service ?? 0);
        here = placeOf(job);
      }
      const back = travel(here, end);
      if (!faulty && time + back > close) return null;
      return { steps, end: time + back, travelled: travelled + back };
    };
    for (const job of jobs) {
      if (!left.has(job.id) || !(job.skills ?? []).every((skill) => skills.has(skill))) continue;
      const load = capacity.map((_, dim) => [...taken, job].reduce((sum, each) => sum + (each.delivery?.[dim] ?? 0), 0));
      if (!faulty && load.some((value, dim) => value > capacity[dim]!)) continue;
      if (!timeline([...taken, job])) continue;
      taken.push(job);
      left.delete(job.id);
    }
    if (taken.length === 0) continue;
    const plan = timeline(taken)!;
    let load = capacity.map((_, dim) => taken.reduce((sum, job) => sum + (job.delivery?.[dim] ?? 0), 0));
    const steps: Record<string, unknown>[] = [
      {
        type: "start",
        location_index: vehicle.start_index,
        location: vehicle.start,
        arrival: open,
        duration: 0,
        setup: 0,
        service: 0,
        waiting_time: 0,
        violations: [],
        load,
      },
    ];
    for (const step of plan.steps) {
      load = load.map((value, dim) => value - (step.job.delivery?.[dim] ?? 0) + (step.job.pickup?.[dim] ?? 0));
      steps.push({
        type: "job",
        id: step.job.id,
        description: step.job.description,
        location_index: step.job.location_index,
        location: step.job.location,
        arrival: step.arrival,
        duration: step.travelled,
        setup: step.job.setup ?? 0,
        service: step.job.service ?? 0,
        waiting_time: step.waiting,
        violations: [],
        load,
      });
    }
    steps.push({
      type: "end",
      location_index: vehicle.end_index,
      location: vehicle.end,
      arrival: plan.end,
      duration: plan.travelled,
      setup: 0,
      service: 0,
      waiting_time: 0,
      violations: [],
      load,
    });
    const service = taken.reduce((sum, job) => sum + (job.service ?? 0), 0);
    const waiting = plan.steps.reduce((sum, step) => sum + step.waiting, 0);
    routes.push({
      vehicle: vehicle.id,
      steps,
      cost: plan.travelled,
      setup: 0,
      service,
      duration: plan.travelled,
      waiting_time: waiting,
      priority: 0,
      violations: [],
      description: vehicle.description,
    });
  }
  const unassigned = jobs
    .filter((job) => left.has(job.id))
    .map((job) => ({ id: job.id, type: "job", location_index: job.location_index, location: job.location, description: job.description }));
  const sum = (key: "cost" | "service" | "duration" | "waiting_time") => routes.reduce((total, route) => total + route[key], 0);
  return {
    code: 0,
    summary: {
      cost: sum("cost"),
      routes: routes.length,
      unassigned: unassigned.length,
      setup: 0,
      service: sum("service"),
      duration: sum("duration"),
      waiting_time: sum("waiting_time"),
      priority: 0,
      violations: [],
      computing_times: { loading: 1, solving: 1, routing: 0 },
    },
    unassigned,
    routes,
  };
}

const INVALID = "Invalid JSON object in request, please add vehicles and jobs or shipments to the object body";

export async function startVroomStandIn(initialMode: VroomStandInMode = "ok"): Promise<VroomStandIn> {
  const requests: Record<string, unknown>[] = [];
  const sockets = new Set<Socket>();
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== "POST" || request.url !== "/") return send(response, 404, { code: 2, error: "Not found" });
    let problem: Problem;
    try {
      problem = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Problem;
    } catch {
      return send(response, 400, { code: 2, error: INVALID });
    }
    requests.push(problem as Record<string, unknown>);
    if (standIn.mode === "not-json") {
      response.writeHead(502, { "content-type": "text/html" });
      return response.end("<html><body>502 Bad Gateway</body></html>");
    }
    if (standIn.mode === "input-error") return send(response, 400, { code: 2, error: "Invalid profile: truck." });
    if (standIn.mode === "internal-error") return send(response, 500, { code: 1, error: "Internal error" });
    if (standIn.mode === "slow") await new Promise((resolve) => setTimeout(resolve, standIn.slowMs));
    if (!problem.vehicles || !(problem.jobs || problem.shipments)) return send(response, 400, { code: 2, error: INVALID });
    try {
      send(response, 200, firstFit(problem, standIn.mode === "overloads"));
    } catch (error) {
      if (error instanceof InputError) send(response, 400, { code: 2, error: error.message });
      else send(response, 500, { code: 1, error: "Internal error" });
    }
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 500, { code: 1, error: "Internal error" }));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const standIn: VroomStandIn = {
    url: `http://127.0.0.1:${port}/`,
    mode: initialMode,
    slowMs: 2_000,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
