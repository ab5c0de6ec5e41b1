import { costOf, durationOf, earliestStart, latestArrival, type RoutingModel, type VehicleModel } from "../model";

/**
 * One vehicle's ordered jobs with what makes an insertion check O(1): per position (0 = the start,
 * 1…k = the jobs, k+1 = the end) the departure time, the latest departure that keeps the rest of the
 * route on time, and the load after it with its running maxima (the classic forward/backward time
 * slack of Savelsbergh, 1992, extended to several windows and VROOM's setup times).
 */
export class Route {
  jobs: number[] = [];
  cost = 0;
  private departure: Float64Array;
  private latestDeparture: Float64Array;
  /** Load after each position, row-major (positions × dims); prefix and suffix maxima beside it. */
  private load: Float64Array;
  private prefixMax: Float64Array;
  private suffixMax: Float64Array;

  constructor(
    readonly model: RoutingModel,
    readonly vehicle: VehicleModel,
  ) {
    const size = model.jobCount + 2;
    this.departure = new Float64Array(size);
    this.latestDeparture = new Float64Array(size);
    const loads = model.hasPickups ? size * model.dims : model.dims;
    this.load = new Float64Array(loads);
    this.prefixMax = new Float64Array(model.hasPickups ? loads : 0);
    this.suffixMax = new Float64Array(model.hasPickups ? loads : 0);
    this.update();
  }

  /** The matrix row at a position (the start, a job, or the end). */
  locationAt(position: number): number {
    if (position === 0) return this.vehicle.start;
    if (position > this.jobs.length) return this.vehicle.end;
    return this.model.loc[this.jobs[position - 1]!]!;
  }

  private setupAt(job: number, previousLocation: number): number {
    return previousLocation !== this.model.loc[job] ? this.model.setup[job]! : 0;
  }

  /** Recomputes the caches after the job list changed; false when the route is not feasible. */
  update(): boolean {
    const { model, vehicle, jobs } = this;
    const count = jobs.length;
    let feasible = count <= vehicle.maxTasks;
    let cost = count ? vehicle.fixedCost : 0;
    let time = vehicle.twStart;
    this.departure[0] = time;
    let previous = vehicle.start;
    for (let position = 1; position <= count; position++) {
      const job = jobs[position - 1]!;
      const here = model.loc[job]!;
      cost += costOf(model, vehicle, previous, here);
      let start = earliestStart(model, job, time + durationOf(model, vehicle, previous, here));
      if (Number.isNaN(start)) {
        feasible = false;
        start = time + durationOf(model, vehicle, previous, here);
      }
      time = start + this.setupAt(job, previous) + model.service[job]!;
      this.departure[position] = time;
      previous = here;
    }
    cost += count ? costOf(model, vehicle, previous, vehicle.end) : 0;
    time += durationOf(model, vehicle, previous, vehicle.end);
    this.departure[count + 1] = time;
    if (time > vehicle.twEnd) feasible = false;
    this.cost = cost;

    let latest = vehicle.twEnd;
    this.latestDeparture[count + 1] = latest;
    let next = vehicle.end;
    for (let position = count; position >= 0; position--) {
      const here = this.locationAt(position);
      const leave = latest - durationOf(model, vehicle, here, next);
      this.latestDeparture[position] = leave;
      if (position === 0) break;
      const job = jobs[position - 1]!;
      latest = latestArrival(model, job, leave - this.setupAt(job, this.locationAt(position - 1)) - model.service[job]!);
      next = here;
    }
    return this.updateLoads() && feasible;
  }

  private updateLoads(): boolean {
    const { model, vehicle, jobs } = this;
    const dims = model.dims;
    let fits = true;
    for (let dim = 0; dim < dims; dim++) {
      let total = 0;
      for (const job of jobs) total += model.delivery[job * dims + dim]!;
      this.load[dim] = total;
      if (total > vehicle.capacity[dim]!) fits = false;
    }
    if (!model.hasPickups) return fits;
    const count = jobs.length;
    for (let position = 1; position <= count + 1; position++) {
      const job = jobs[position - 1];
      for (let dim = 0; dim < dims; dim++) {
        const before = this.load[(position - 1) * dims + dim]!;
        this.load[position * dims + dim] = job === undefined ? before : before - model.delivery[job * dims + dim]! + model.pickup[job * dims + dim]!;
      }
    }
    for (let dim = 0; dim < dims; dim++) {
      let running = -Infinity;
      for (let position = 0; position <= count + 1; position++) {
        running = Math.max(running, this.load[position * dims + dim]!);
        this.prefixMax[position * dims + dim] = running;
      }
      if (running > vehicle.capacity[dim]!) fits = false;
      running = -Infinity;
      for (let position = count + 1; position >= 0; position--) {
        running = Math.max(running, this.load[position * dims + dim]!);
        this.suffixMax[position * dims + dim] = running;
      }
    }
    return fits;
  }

  /** Whether the job's load fits anywhere in this route (the whole check without pickups). */
  loadFits(job: number): boolean {
    const { model, vehicle } = this;
    if (model.hasPickups) return true;
    for (let dim = 0; dim < model.dims; dim++) {
      if (this.load[dim]! + model.delivery[job * model.dims + dim]! > vehicle.capacity[dim]!) return false;
    }
    return true;
  }

  private loadFitsAt(job: number, position: number): boolean {
    const { model, vehicle } = this;
    const dims = model.dims;
    for (let dim = 0; dim < dims; dim++) {
      const capacity = vehicle.capacity[dim]!;
      const delivery = model.delivery[job * dims + dim]!;
      const pickup = model.pickup[job * dims + dim]!;
      if (this.prefixMax[position * dims + dim]! + delivery > capacity) return false;
      if (this.load[position * dims + dim]! + pickup > capacity) return false;
      if (this.suffixMax[(position + 1) * dims + dim]! + pickup > capacity) return false;
    }
    return true;
  }

  /** Whether the vehicle may take the job at all (skills, task limit, load). */
  accepts(job: number): boolean {
    return this.vehicle.eligible[job] === 1 && this.jobs.length < this.vehicle.maxTasks && this.loadFits(job);
  }

  /**
   * The added cost of putting `job` right after `position` (0 = first), or NaN when that breaks a
   * window, the shift or the load, or costs `bound` or more (the cost is read first: most places
   * are dearer than the best found so far and need no timing). Assumes `accepts(job)`.
   */
  insertionCost(job: number, position: number, bound = Infinity): number {
    const { model, vehicle } = this;
    const before = this.locationAt(position);
    const after = this.locationAt(position + 1);
    const here = model.loc[job]!;
    const count = this.jobs.length;
    const added =
      costOf(model, vehicle, before, here) + costOf(model, vehicle, here, after) - (count ? costOf(model, vehicle, before, after) : -vehicle.fixedCost);
    if (!(added < bound)) return NaN;
    const start = earliestStart(model, job, this.departure[position]! + durationOf(model, vehicle, before, here));
    if (Number.isNaN(start)) return NaN;
    const leave = start + this.setupAt(job, before) + model.service[job]!;
    const arrival = leave + durationOf(model, vehicle, here, after);
    if (position === count) {
      if (arrival > vehicle.twEnd) return NaN;
    } else {
      const next = this.jobs[position]!;
      const nextStart = earliestStart(model, next, arrival);
      if (Number.isNaN(nextStart) || nextStart + this.setupAt(next, here) + model.service[next]! > this.latestDeparture[position + 1]!) return NaN;
    }
    if (model.hasPickups && !this.loadFitsAt(job, position)) return NaN;
    return added;
  }

  /**
   * The departure time after `position`: positions past the job's last window close cannot take
   * it, and departures only grow along a route, so a scan may stop there.
   */
  departureAt(position: number): number {
    return this.departure[position]!;
  }

  insert(job: number, position: number): void {
    this.jobs.splice(position, 0, job);
    this.update();
  }
}
