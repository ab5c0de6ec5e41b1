import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { GeoPoint } from "@core/geo";
import { recordStaffActions, type StaffActionEntry, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { deliveries, routeOptimisations, routePlans, users, type RouteOptimisationResult } from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { describeUnassignedReason, solve, type RoutingEngine, type VroomProblem, type VroomSolution } from "../routing/index.server";
import { DispatchRefusedError } from "./dispatch-actions";
import { instantOfSeconds, jobOf, loadAboard, serviceStarts, splitKept, travelModelOf, vanStart, vehicleOf, type VanShift } from "./route-plan";
import { loadRouteSettings, type RouteSettings } from "./route-settings";
import { KEPT_STATUSES, loadRouteStops, type RouteStopRow } from "./route-stops";
import { transitionDeliveries } from "./transition";

export type { RouteOptimisationResult };

/** The most vans one run plans. */
export const MAX_VANS = 50;

const NO_POINT = "Sin ubicación: ni la dirección ni su distrito tienen un punto en el mapa. Márcala en el pedido o en Distritos.";

/** What the run read and planned, before anything is written. */
interface Plan {
  vans: VanShift[];
  /** Every delivery the run read, as it was (checked again under the locks). */
  read: RouteStopRow[];
  /** Per van (by driver): its open stops in visiting order with their arrival. */
  routes: Map<string, { stop: RouteStopRow; arrival: Date }[]>;
  drivingSeconds: Map<string, number>;
  unassigned: { stop: RouteStopRow; reason: string }[];
  keptCount: number;
}

/**
 * "Optimizar rutas" (issue 26): plans a day for the chosen vans. Every delivery of the day that is
 * not yet on the road and is unassigned or on one of these drivers' routes is given to a van, in
 * the order that keeps each window and each van's capacity and shift with the least driving, or
 * listed with the reason it could not be placed. Stops already en camino, delivered or failed stay
 * where they are; a van with such stops starts from the last of them. The solver (server/routing,
 * the built-in one or a VROOM server) runs outside any transaction; then the drivers and the
 * deliveries are locked (decision 0025: users, then deliveries in id order, then the day's vans)
 * and the plan is written only if nothing it read has changed meanwhile. The form's key makes a
 * double click one run; the same day and vans planned again give the same routes (the built-in
 * solver is deterministic for its seed), so nothing changes the second time.
 */
export async function optimiseRoutes(
  db: Database,
  actor: StaffActor,
  input: { date: string; vans: VanShift[]; requestKey: string; now: Date; engine?: RoutingEngine },
): Promise<{ result: RouteOptimisationResult; repeated: boolean }> {
  const earlier = await findRun(db, input.requestKey);
  if (earlier) return { result: earlier, repeated: true };
  if (input.vans.length === 0) throw new DispatchRefusedError("Elige al menos un repartidor para optimizar.");
  if (input.vans.length > MAX_VANS) throw new DispatchRefusedError(`Elige como máximo ${MAX_VANS} repartidores a la vez.`);
  if (new Set(input.vans.map((van) => van.driverId)).size !== input.vans.length) throw new DispatchRefusedError("Cada repartidor va una sola vez.");
  // Before the solver, whose work grows with the vans (issue 39: 49 invented ids cost 2.3 s of
  // CPU): every van must be an active repartidor's. Checked again under the lock before writing.
  await refuseInactiveDrivers(db, input.vans);
  const settings = await loadRouteSettings(db);
  const plan = await planDay(db, input, settings);
  return inTransaction(db, async (tx) => {
    const again = await findRun(tx, input.requestKey);
    if (again) return { result: again, repeated: true };
    await lockDrivers(tx, input.vans);
    await lockUnchanged(tx, input.date, plan.read);
    const result = await writePlan(tx, actor, { ...input, plan });
    await tx
      .insert(routeOptimisations)
      .values({ requestKey: input.requestKey, deliveryDate: input.date, createdBy: actor.email, result, createdAt: input.now });
    return { result, repeated: false };
  });
}

async function findRun(db: Database | Transaction, requestKey: string): Promise<RouteOptimisationResult | null> {
  const [row] = await db.select({ result: routeOptimisations.result }).from(routeOptimisations).where(eq(routeOptimisations.requestKey, requestKey));
  return row?.result ?? null;
}

/** The day's latest run, as Despacho shows it. */
export async function latestRouteOptimisation(
  db: Database,
  date: string,
): Promise<{ result: RouteOptimisationResult; createdAt: Date; createdBy: string } | null> {
  const [row] = await db
    .select({ result: routeOptimisations.result, createdAt: routeOptimisations.createdAt, createdBy: routeOptimisations.createdBy })
    .from(routeOptimisations)
    .where(eq(routeOptimisations.deliveryDate, date))
    .orderBy(desc(routeOptimisations.id))
    .limit(1);
  return row ?? null;
}

async function planDay(db: Database, input: { date: string; vans: VanShift[]; now: Date; engine?: RoutingEngine }, settings: RouteSettings): Promise<Plan> {
  const drivers = input.vans.map((van) => van.driverId);
  const read = await loadRouteStops(db, { date: input.date, drivers, includeUnassigned: true });
  const candidates = read.filter((stop) => !KEPT_STATUSES.includes(stop.status));
  const placeable = candidates.filter((stop): stop is RouteStopRow & { point: GeoPoint } => stop.point !== null);
  const unassigned: Plan["unassigned"] = candidates.filter((stop) => stop.point === null).map((stop) => ({ stop, reason: NO_POINT }));

  const problem: VroomProblem = {
    vehicles: input.vans.map((van, index) => {
      const { kept } = splitKept(read.filter((stop) => stop.driverId === van.driverId));
      const start = vanStart({ date: input.date, van, kept, settings, now: input.now });
      return vehicleOf({ id: index + 1, van, start, settings, loadAboard: loadAboard(kept) });
    }),
    jobs: placeable.map((stop, index) => jobOf(stop, index + 1, settings)),
  };
  const routes = new Map<string, { stop: RouteStopRow; arrival: Date }[]>(input.vans.map((van) => [van.driverId, []]));
  const drivingSeconds = new Map<string, number>(input.vans.map((van) => [van.driverId, 0]));
  if (placeable.length) {
    const solution: VroomSolution = await solve(problem, {
      engine: input.engine,
      travel: travelModelOf(settings),
      seed: 1,
      // Enough rounds for any day the time limit lets finish: then the same day plans the same way.
      iterations: 2_000 * placeable.length,
      timeLimitMs: 5_000,
    });
    for (const route of solution.routes) {
      const van = input.vans[route.vehicle - 1];
      if (!van) continue;
      const arrivals = serviceStarts(route);
      drivingSeconds.set(van.driverId, route.duration);
      routes.set(
        van.driverId,
        route.steps
          .filter((step) => step.type === "job" && step.id !== undefined)
          .map((step) => ({ stop: placeable[step.id! - 1]!, arrival: instantOfSeconds(input.date, arrivals.get(step.id!)!) })),
      );
    }
    for (const left of solution.unassigned) {
      const stop = placeable[left.id - 1];
      if (stop) unassigned.push({ stop, reason: describeUnassignedReason(left.reason ?? "fleet_full") });
    }
  }
  return { vans: input.vans, read, routes, drivingSeconds, unassigned, keptCount: read.length - candidates.length };
}

const INACTIVE_DRIVERS = "Elige repartidores activos. No se cambió ninguna ruta.";

/** The chosen drivers that are active repartidores (the caller has made the ids unique). */
const activeDrivers = (db: Database | Transaction, vans: VanShift[]) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(
          users.id,
          vans.map((van) => van.driverId),
        ),
        eq(users.role, "repartidor"),
        eq(users.status, "active"),
      ),
    )
    .orderBy(asc(users.id));

/** Refuses, before any planning, a choice of vans that names anyone but active repartidores. */
async function refuseInactiveDrivers(db: Database, vans: VanShift[]): Promise<void> {
  if ((await activeDrivers(db, vans)).length !== vans.length) throw new DispatchRefusedError(INACTIVE_DRIVERS);
}

/** The chosen drivers, locked first (users before deliveries): each must still be an active repartidor. */
async function lockDrivers(tx: Transaction, vans: VanShift[]): Promise<void> {
  const rows = await activeDrivers(tx, vans).for("update");
  if (rows.length !== vans.length) throw new DispatchRefusedError(INACTIVE_DRIVERS);
}

/** Locks what the plan read (id order) and refuses when any of it changed since: the plan would be stale. */
async function lockUnchanged(tx: Transaction, date: string, read: RouteStopRow[]): Promise<void> {
  if (read.length === 0) return;
  const ids = read.map((stop) => stop.id);
  const rows = await tx
    .select({
      id: deliveries.id,
      status: deliveries.status,
      date: deliveries.deliveryDate,
      window: deliveries.deliveryWindow,
      driverId: deliveries.assignedDriverId,
      position: deliveries.routePosition,
      lat: deliveries.lat,
      lng: deliveries.lng,
    })
    .from(deliveries)
    .where(inArray(deliveries.id, ids))
    .orderBy(asc(deliveries.id))
    .for("update");
  const now = new Map(rows.map((row) => [row.id, row]));
  const stale = read.some((stop) => {
    const row = now.get(stop.id);
    if (!row) return true;
    const samePoint = stop.approximate ? row.lat === null : row.lat === stop.point?.lat && row.lng === stop.point?.lng;
    return (
      row.status !== stop.status ||
      row.date !== date ||
      row.window !== stop.deliveryWindow ||
      row.driverId !== stop.driverId ||
      row.position !== stop.routePosition ||
      !samePoint
    );
  });
  if (stale) throw new DispatchRefusedError("Los envíos del día cambiaron mientras se calculaban las rutas. Vuelve a presionar «Optimizar rutas».");
}

const snapshot = (stop: { status: string; driverId: string | null; routePosition: number | null }) => ({
  status: stop.status,
  assignedDriverId: stop.driverId,
  routePosition: stop.routePosition,
});

async function writePlan(tx: Transaction, actor: StaffActor, input: { date: string; now: Date; plan: Plan }): Promise<RouteOptimisationResult> {
  const { plan, date, now } = input;
  const audit: StaffActionEntry[] = [];
  let changed = 0;
  const names = new Map(
    (
      await tx
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(
          inArray(
            users.id,
            plan.vans.map((van) => van.driverId),
          ),
        )
    ).map((row) => [row.id, `${row.firstName} ${row.lastName}`.trim()]),
  );

  for (const van of plan.vans) {
    const stops = plan.routes.get(van.driverId) ?? [];
    const keptPositions = plan.read
      .filter((stop) => stop.driverId === van.driverId && KEPT_STATUSES.includes(stop.status))
      .map((stop) => stop.routePosition ?? 0);
    let position = Math.max(0, ...keptPositions);
    const toSchedule = stops.filter(({ stop }) => stop.status !== "scheduled").map(({ stop }) => stop.id);
    await transitionDeliveries(tx, toSchedule, "scheduled", {
      actor: actor.email,
      now,
      note: `Asignado a ${names.get(van.driverId) ?? "repartidor"} (rutas optimizadas)`,
    });
    for (const { stop, arrival } of stops) {
      position += 1;
      const moved = stop.driverId !== van.driverId || stop.routePosition !== position || stop.status !== "scheduled";
      if (!moved && stop.estimatedArrivalAt?.getTime() === arrival.getTime()) continue;
      changed += 1;
      await tx
        .update(deliveries)
        .set({ assignedDriverId: van.driverId, routePosition: position, estimatedArrivalAt: arrival, updatedAt: now })
        .where(eq(deliveries.id, stop.id));
      if (moved) {
        audit.push({
          action: "delivery.optimise",
          entityType: "delivery",
          entityId: stop.id,
          before: snapshot(stop),
          after: { status: "scheduled", assignedDriverId: van.driverId, routePosition: position },
        });
      }
    }
    await tx
      .insert(routePlans)
      .values({
        deliveryDate: date,
        driverId: van.driverId,
        capacity: van.capacity,
        capacityUnit: van.capacityUnit,
        shiftStart: van.shiftStart,
        shiftEnd: van.shiftEnd,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [routePlans.deliveryDate, routePlans.driverId],
        set: { capacity: van.capacity, capacityUnit: van.capacityUnit, shiftStart: van.shiftStart, shiftEnd: van.shiftEnd, updatedAt: now },
      });
  }

  // What could not be placed comes off any route, listed with its reason: never silently dropped.
  for (const { stop } of plan.unassigned) {
    if (stop.driverId === null && stop.routePosition === null && stop.estimatedArrivalAt === null) continue;
    changed += 1;
    await tx
      .update(deliveries)
      .set({ assignedDriverId: null, routePosition: null, estimatedArrivalAt: null, updatedAt: now })
      .where(eq(deliveries.id, stop.id));
    audit.push({
      action: "delivery.optimise",
      entityType: "delivery",
      entityId: stop.id,
      before: snapshot(stop),
      after: { status: stop.status, assignedDriverId: null, routePosition: null },
    });
  }
  await recordStaffActions(tx, actor, audit);

  const routes = plan.vans.map((van) => ({
    driverId: van.driverId,
    driverName: names.get(van.driverId) ?? van.driverId,
    stops: plan.routes.get(van.driverId)?.length ?? 0,
    drivingMinutes: Math.round((plan.drivingSeconds.get(van.driverId) ?? 0) / 60),
  }));
  return {
    routes,
    unassigned: plan.unassigned
      .map(({ stop, reason }) => ({ deliveryId: stop.id, deliveryNumber: stop.deliveryNumber, reason }))
      .sort((a, b) => a.deliveryNumber.localeCompare(b.deliveryNumber)),
    kept: plan.keptCount,
    changed,
    drivingMinutes: routes.reduce((sum, route) => sum + route.drivingMinutes, 0),
  };
}
