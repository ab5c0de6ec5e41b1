import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseEnv } from "@server/config/env";
import { checkSolution, RoutingEngineError, solve, type RoutingEngine, type VroomProblem } from "@server/routing/index.server";
import { IMPOSSIBLE, randomInstance } from "../support/routing-instances";
import { startVroomStandIn, type VroomStandIn } from "../support/vroom-stand-in";

let vroom: VroomStandIn;
let engine: Extract<RoutingEngine, { kind: "vroom" }>;

beforeAll(async () => {
  vroom = await startVroomStandIn();
  engine = { kind: "vroom", url: vroom.url, timeoutMs: 5_000 };
});
afterAll(() => vroom.close());
beforeEach(() => {
  vroom.mode = "ok";
  vroom.requests.length = 0;
});

describe("VROOM server adapter", () => {
  it("sends the problem as VROOM JSON and returns the server's routes, unassigned stops with our reasons", async () => {
    const problem = randomInstance({ jobs: 25, vehicles: 3, seed: 11 });
    const solution = await solve(problem, { engine });

    expect(vroom.requests).toHaveLength(1);
    const sent = vroom.requests[0] as VroomProblem;
    expect(sent.vehicles.map((vehicle) => vehicle.id)).toEqual([1, 2, 3]);
    expect(sent.jobs).toHaveLength(problem.jobs!.length);
    expect(sent.matrices?.car?.durations).toEqual(problem.matrices!.car!.durations);
    // The answer is the server's: our checker agrees it is feasible for the same problem.
    expect(solution.routes.length).toBeGreaterThan(0);
    expect(checkSolution(problem, solution)).toEqual([]);
    const reasons = new Map(solution.unassigned.map((task) => [task.id, task.reason]));
    expect(reasons.get(IMPOSSIBLE.capacity)).toBe("capacity");
    expect(reasons.get(IMPOSSIBLE.time_window)).toBe("time_window");
    expect(reasons.get(IMPOSSIBLE.skills)).toBe("skills");
  });

  it("rounds fractional travel up and windows inwards for VROOM, so the answer keeps the exact windows", async () => {
    const problem: VroomProblem = {
      vehicles: [{ id: 1, start_index: 0, end_index: 0, capacity: [5], time_window: [0, 100.5] }],
      jobs: [
        { id: 1, location_index: 1, service: 2.2, delivery: [1], time_windows: [[10.4, 30.6]] },
        { id: 2, location_index: 2, service: 1, delivery: [1] },
      ],
      matrices: {
        car: {
          durations: [
            [0, 10.2, 20.7],
            [10.2, 0, 12.1],
            [20.7, 12.1, 0],
          ],
        },
      },
    };
    const solution = await solve(problem, { engine });
    const sent = vroom.requests[0] as VroomProblem;
    expect(sent.matrices!.car!.durations).toEqual([
      [0, 11, 21],
      [11, 0, 13],
      [21, 13, 0],
    ]);
    expect(sent.jobs![0]).toMatchObject({ service: 3, time_windows: [[11, 30]] });
    expect(sent.vehicles[0]!.time_window).toEqual([0, 100]);
    expect(checkSolution(problem, solution).filter((issue) => !/reports service at/.test(issue.message))).toEqual([]);
  });

  it("lets the server time a problem given by coordinates (its road engine's times, not ours)", async () => {
    const depot: [number, number] = [-76.995, -12.075];
    const problem: VroomProblem = {
      vehicles: [{ id: 1, start: depot, end: depot, capacity: [10], time_window: [28_800, 68_400] }],
      jobs: [{ id: 1, location: [-77.03, -12.121], service: 300, delivery: [2] }],
    };
    const solution = await solve(problem, { engine, travel: { speedKmh: 20, detour: 1.35 } });
    expect((vroom.requests[0] as VroomProblem).matrices).toBeUndefined();
    const step = solution.routes[0]!.steps[1]!;
    // The stand-in plays OSRM at 30 km/h in a straight line: about 6.3 km, 12.6 minutes.
    expect(step.duration).toBeGreaterThan(700);
    expect(step.duration).toBeLessThan(820);
  });

  it.each([
    ["input-error", /HTTP 400, code 2\): Invalid profile: truck/],
    ["internal-error", /HTTP 500, code 1\): Internal error/],
    ["not-json", /answered 502 with no JSON/],
  ] as const)("turns a %s answer into a RoutingEngineError that says what the server said", async (mode, message) => {
    vroom.mode = mode;
    const error = await solve(randomInstance({ jobs: 5, vehicles: 1, seed: 1 }), { engine }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RoutingEngineError);
    expect((error as Error).message).toMatch(message);
  });

  it("gives up on a server that does not answer in time", async () => {
    vroom.mode = "slow";
    vroom.slowMs = 2_000;
    const error = await solve(randomInstance({ jobs: 5, vehicles: 1, seed: 1 }), { engine: { ...engine, timeoutMs: 200 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RoutingEngineError);
    expect((error as Error).message).toMatch(/no answer within 200 ms/);
  });

  it("reads ROUTING_URL as an http(s) URL and refuses anything else at boot", () => {
    expect(parseEnv({ ROUTING_URL: "http://vroom.internal:3000/" })).toMatchObject({ ROUTING_URL: "http://vroom.internal:3000/", ROUTING_TIMEOUT_SECONDS: 60 });
    expect(() => parseEnv({ ROUTING_URL: "ftp://vroom.internal/" })).toThrow(/ROUTING_URL/);
    expect(() => parseEnv({ ROUTING_URL: "vroom" })).toThrow(/ROUTING_URL/);
  });
});
