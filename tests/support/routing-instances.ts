/**
 * Random VROOM problems for the solver's tests (issue 26): points on a plane with a Euclidean
 * matrix, vehicles of different capacities, shifts and skills, single and double time windows,
 * pickups of empty bidones, setup times, and a few stops no van can serve (too heavy, unreachable
 * window, a skill nobody has) so the unassigned reasons are exercised too. Same seed, same problem.
 */
import type { VroomJob, VroomProblem, VroomVehicle } from "@server/routing/index.server";

function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), state | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomInstanceOptions {
  jobs: number;
  vehicles: number;
  seed: number;
}

/** Job ids of the stops made impossible on purpose, by the reason the solver must give. */
export const IMPOSSIBLE = { capacity: 9001, time_window: 9002, skills: 9003 } as const;

export function randomInstance({ jobs, vehicles, seed }: RandomInstanceOptions): VroomProblem {
  const random = generator(seed);
  const between = (low: number, high: number) => Math.round(low + random() * (high - low));
  const points: [number, number][] = [[50, 50]];
  const fleet: VroomVehicle[] = Array.from({ length: vehicles }, (_, index) => ({
    id: index + 1,
    start_index: 0,
    end_index: 0,
    capacity: [between(30, 60), 20],
    time_window: [between(0, 60), between(540, 600)],
    skills: index % 2 === 0 ? [1] : [],
    ...(index === vehicles - 1 ? { speed_factor: 1.25 } : {}),
  }));
  const list: VroomJob[] = [];
  for (let index = 0; index < jobs; index++) {
    points.push([between(0, 100), between(0, 100)]);
    const open = between(0, 480);
    const window: [number, number] = [open, open + between(30, 180)];
    const shape = random();
    list.push({
      id: index + 1,
      location_index: points.length - 1,
      service: between(5, 15),
      ...(index % 7 === 0 ? { setup: 3 } : {}),
      delivery: [between(1, 6), 0],
      ...(index % 5 === 0 ? { pickup: [0, between(1, 4)] } : {}),
      ...(index % 11 === 0 ? { skills: [1] } : {}),
      ...(index % 13 === 0 ? { priority: 10 } : {}),
      ...(shape < 0.15 ? {} : { time_windows: shape < 0.3 ? [window, [window[1] + 60, window[1] + 120]] : [window] }),
    });
  }
  // Two stops at the same place as another: setup applies once there.
  points.push(points[1]!);
  list.push({ id: jobs + 1, location_index: points.length - 1, service: 5, setup: 3, delivery: [1, 0] });
  const place = () => {
    points.push([between(0, 100), between(0, 100)]);
    return points.length - 1;
  };
  list.push({ id: IMPOSSIBLE.capacity, location_index: place(), delivery: [500, 0] });
  list.push({ id: IMPOSSIBLE.time_window, location_index: place(), time_windows: [[2000, 2100]] });
  list.push({ id: IMPOSSIBLE.skills, location_index: place(), skills: [7] });
  const durations = points.map(([x1, y1]) => points.map(([x2, y2]) => Math.round(Math.hypot(x1 - x2, y1 - y2))));
  const distances = durations.map((row) => row.map((value) => value * 100));
  return { vehicles: fleet, jobs: list, matrices: { car: { durations, distances } } };
}
