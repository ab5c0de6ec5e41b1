import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildTravelMatrix,
  checkSolution,
  haversineKm,
  planRoute,
  simpleFromVroom,
  simpleToVroom,
  solve,
  type VroomProblem,
  type VroomSolution,
} from "@server/routing/index.server";
import { readSolomon } from "../../bench/solomon/solomon";
import { IMPOSSIBLE, randomInstance } from "../support/routing-instances";

const builtIn = { kind: "built-in" } as const;
/** Counted rounds, not a time limit: the same answer on a loaded machine (and repeatable). */
const quick = { engine: builtIn, iterations: 300, timeLimitMs: 30_000 };

const jobIdsOf = (solution: VroomSolution) => solution.routes.map((route) => route.steps.flatMap((step) => (step.type === "job" ? [step.id] : [])));

// Searches are bounded by rounds, not time; the timeout only allows for a loaded machine.
describe("built-in route solver", { timeout: 60_000 }, () => {
  it.each([1, 2, 3])("serves every stop of random instance %i on time and within capacity, or says why not", async (seed) => {
    const problem = randomInstance({ jobs: 60, vehicles: 5, seed });
    const solution = await solve(problem, { ...quick, seed });

    expect(checkSolution(problem, solution)).toEqual([]);
    const reasons = new Map(solution.unassigned.map((task) => [task.id, task.reason]));
    expect(reasons.get(IMPOSSIBLE.capacity)).toBe("capacity");
    expect(reasons.get(IMPOSSIBLE.time_window)).toBe("time_window");
    expect(reasons.get(IMPOSSIBLE.skills)).toBe("skills");
    // Five vans are enough for most of the day: the search leaves out few besides the impossible.
    expect(solution.summary.routes).toBeGreaterThan(0);
    expect(solution.unassigned.length).toBeLessThan(20);
  });

  it("reports arrival, wait, load and distance on every step as VROOM does", async () => {
    const problem = randomInstance({ jobs: 20, vehicles: 3, seed: 9 });
    const solution = await solve(problem, { ...quick, seed: 9 });
    const route = solution.routes[0]!;
    expect(route.steps[0]!.type).toBe("start");
    expect(route.steps.at(-1)!.type).toBe("end");
    for (const step of route.steps) {
      expect(step.load).toHaveLength(2);
      expect(step.distance).toBe(step.duration * 100);
    }
    const jobs = route.steps.filter((step) => step.type === "job");
    for (let index = 1; index < jobs.length; index++) expect(jobs[index]!.arrival).toBeGreaterThanOrEqual(jobs[index - 1]!.arrival);
    expect(solution.summary.duration).toBe(solution.routes.reduce((total, each) => total + each.duration, 0));
    expect(solution.summary.unassigned).toBe(solution.unassigned.length);
  });

  it("gives the same routes for the same seed and round count", async () => {
    const problem = randomInstance({ jobs: 50, vehicles: 4, seed: 4 });
    const first = await solve(problem, { ...quick, seed: 42 });
    const second = await solve(problem, { ...quick, seed: 42 });
    expect(jobIdsOf(second)).toEqual(jobIdsOf(first));
    expect(second.summary.cost).toBe(first.summary.cost);
  });

  it("keeps every Solomon C101 route feasible and near the best-known distance in a short run", async () => {
    const instance = readSolomon(path.join(import.meta.dirname, "../../bench/solomon/c101.txt"));
    const problem = simpleToVroom(instance);
    const solution = await solve(problem, { engine: builtIn, iterations: 400, timeLimitMs: 30_000, seed: 1 });
    expect(checkSolution(problem, solution)).toEqual([]);
    const answer = simpleFromVroom(instance, solution);
    expect(answer.unassigned).toEqual([]);
    expect(answer.routes.flatMap((route) => route.stops)).toHaveLength(100);
    // Best known 828.94 with 10 vehicles (bench/solomon/README.md); a short run stays within 5 %.
    expect(answer.distance).toBeLessThan(828.94 * 1.05);
  });

  it("solves a problem given by coordinates with the travel model, leaving the depot as late as the first window allows", async () => {
    const depot: [number, number] = [-76.995, -12.075];
    const problem: VroomProblem = {
      vehicles: [{ id: 7, start: depot, end: depot, capacity: [20], time_window: [8 * 3600, 19 * 3600] }],
      jobs: [
        { id: 1, location: [-77.03, -12.121], service: 300, delivery: [4], time_windows: [[9 * 3600, 13 * 3600]] },
        { id: 2, location: [-77.037, -12.097], service: 300, delivery: [4], time_windows: [[14 * 3600, 18 * 3600]] },
      ],
    };
    const travel = { speedKmh: 20, detour: 1.35 };
    const solution = await solve(problem, { engine: builtIn, travel, iterations: 50 });
    expect(checkSolution(problem, solution, { travel })).toEqual([]);
    const [start, first, second] = solution.routes[0]!.steps;
    expect([first!.id, second!.id]).toEqual([1, 2]);
    expect(first!.arrival).toBe(9 * 3600);
    expect(first!.waiting_time).toBe(0);
    expect(start!.arrival).toBe(9 * 3600 - first!.duration);
    expect(second!.arrival + second!.waiting_time).toBe(14 * 3600);
    expect(solution.routes[0]!.distance).toBeGreaterThan(0);
  });
});

describe("route times in an order staff chose", () => {
  const problem: VroomProblem = {
    vehicles: [{ id: 1, start_index: 0, end_index: 0, capacity: [10], time_window: [0, 500] }],
    jobs: [
      { id: 1, location_index: 1, service: 10, delivery: [4], time_windows: [[0, 100]] },
      { id: 2, location_index: 2, service: 10, delivery: [4], time_windows: [[150, 200]] },
      { id: 3, location_index: 3, service: 10, delivery: [4] },
    ],
    matrices: {
      car: {
        durations: [
          [0, 50, 60, 70],
          [50, 0, 40, 60],
          [60, 40, 0, 30],
          [70, 60, 30, 0],
        ],
      },
    },
  };

  it("flags the window a moved stop would miss, by how much, and an overloaded van", () => {
    const route = planRoute(problem, 1, [2, 1, 3]);
    const [, second, first] = route.steps;
    expect(second!.id).toBe(2);
    expect(second!.arrival + second!.waiting_time).toBe(150);
    // 150 + 10 service + 40 drive = 200, past job 1's close at 100.
    expect(first).toMatchObject({ id: 1, arrival: 200, violations: [{ cause: "delay", duration: 100 }] });
    expect(route.violations).toEqual(expect.arrayContaining([{ cause: "delay", duration: 100 }, { cause: "load" }]));
  });

  it("reports no violation for an order that keeps every window", () => {
    const route = planRoute({ ...problem, jobs: problem.jobs!.slice(0, 2) }, 1, [1, 2]);
    expect(route.violations).toEqual([]);
    // 50 to job 1, 10 service, 40 on: 100 at job 2, which opens at 150; 10 service, 60 back.
    expect(route.steps.map((step) => [step.arrival, step.waiting_time])).toEqual([
      [0, 0],
      [50, 0],
      [100, 50],
      [220, 0],
    ]);
  });
});

describe("feasibility checker", () => {
  const problem = randomInstance({ jobs: 15, vehicles: 2, seed: 5 });

  it("catches a missed window, a double visit, a lost stop and a missing reason", async () => {
    const solution = await solve(problem, { ...quick, seed: 5 });
    expect(checkSolution(problem, solution)).toEqual([]);

    const broken = structuredClone(solution);
    const route = broken.routes[0]!;
    const jobs = route.steps.filter((step) => step.type === "job");
    // Served at the very end of the day: past its window (the checker recomputes, it does not trust the order).
    route.steps.splice(route.steps.indexOf(jobs[0]!), 1);
    route.steps.splice(route.steps.length - 1, 0, jobs[0]!, { ...jobs[1]! });
    const dropped = broken.unassigned.pop()!;
    broken.unassigned[0] = { ...broken.unassigned[0]!, reason: undefined };

    const messages = checkSolution(problem, broken).map((issue) => `${issue.job ?? ""} ${issue.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        `${jobs[1]!.id} served 2 times`,
        `${dropped.id} neither served nor listed unassigned`,
        `${broken.unassigned[0]!.id} unassigned without a reason`,
      ]),
    );
    expect(messages.some((message) => /after its last window closes|reports service at/.test(message))).toBe(true);
  });

  it("catches a van loaded over its capacity", async () => {
    const solution = await solve(problem, { ...quick, seed: 5 });
    const lighter = structuredClone(problem);
    lighter.vehicles = lighter.vehicles.map((vehicle) => ({ ...vehicle, capacity: [1, 1] }));
    expect(checkSolution(lighter, solution).some((issue) => /over capacity/.test(issue.message))).toBe(true);
  });
});

describe("travel times from coordinates", () => {
  it("measures one degree of latitude as about 111.2 km", () => {
    expect(haversineKm({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(111.195, 2);
  });

  it("builds a symmetric matrix in whole seconds and metres from distance × detour ÷ speed", () => {
    const points = [
      { lat: -12.121, lng: -77.03 },
      { lat: -12.097, lng: -77.037 },
      { lat: -12.046, lng: -77.043 },
    ];
    const { durations, distances } = buildTravelMatrix(points, { speedKmh: 20, detour: 1.5 });
    const km = haversineKm(points[0]!, points[1]!) * 1.5;
    expect(distances[0]![1]).toBe(Math.round(km * 1000));
    expect(durations[0]![1]).toBe(Math.round((km / 20) * 3600));
    expect(durations[1]![0]).toBe(durations[0]![1]);
    expect(durations[2]![2]).toBe(0);
    expect(() => buildTravelMatrix(points, { speedKmh: 0, detour: 1.3 })).toThrow(/speedKmh/);
  });
});
