import type { RoutingModel } from "../model";
import { Route } from "./route";

/**
 * The search's working solution: one route per vehicle, where each job is, what is unassigned, and
 * what a round changed (the job lists of touched routes as they were), so a rejected round is undone
 * by restoring those routes only.
 */
export class Solution {
  readonly routes: Route[];
  readonly routeOf: Int32Array;
  unassigned: number[] = [];
  /** The job lists of routes changed in this round, as they were before it. */
  private saved = new Map<number, number[]>();
  private savedUnassigned: number[] = [];
  private changed = new Set<number>();
  /** Scratch marks of the routes near the job being placed (recreate). */
  readonly routeStamp: Int32Array;
  stampCounter = 0;

  constructor(readonly model: RoutingModel) {
    this.routes = model.vehicles.map((vehicle) => new Route(model, vehicle));
    this.routeOf = new Int32Array(model.jobCount).fill(-1);
    this.routeStamp = new Int32Array(this.routes.length);
  }

  travelCost(): number {
    let total = 0;
    for (const route of this.routes) total += route.cost;
    return total;
  }

  begin(): void {
    this.saved.clear();
    this.changed.clear();
    this.savedUnassigned = this.unassigned.slice();
  }

  private touch(route: number): void {
    if (!this.saved.has(route)) this.saved.set(route, this.routes[route]!.jobs.slice());
    this.changed.add(route);
  }

  remove(job: number): void {
    const route = this.routeOf[job]!;
    this.touch(route);
    const jobs = this.routes[route]!.jobs;
    jobs.splice(jobs.indexOf(job), 1);
    this.routeOf[job] = -1;
  }

  /** Recomputes the caches of the routes the ruin cut. */
  settle(): void {
    for (const route of this.changed) this.routes[route]!.update();
    this.changed.clear();
  }

  insert(job: number, route: number, position: number): void {
    this.touch(route);
    this.routes[route]!.insert(job, position);
    this.changed.delete(route);
    this.routeOf[job] = route;
  }

  /** Puts back the routes and unassigned list as they were at `begin()`. */
  undo(): void {
    // Two passes: a job that moved between two changed routes must end up in its old one.
    for (const index of this.saved.keys()) for (const job of this.routes[index]!.jobs) this.routeOf[job] = -1;
    for (const [index, jobs] of this.saved) {
      const route = this.routes[index]!;
      route.jobs = jobs;
      route.update();
      for (const job of jobs) this.routeOf[job] = index;
    }
    this.unassigned = this.savedUnassigned;
    for (const job of this.unassigned) this.routeOf[job] = -1;
    this.saved.clear();
  }

  snapshot(): number[][] {
    return this.routes.map((route) => route.jobs.slice());
  }
}
