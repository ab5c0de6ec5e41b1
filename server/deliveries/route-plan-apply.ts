import { asc, eq, inArray } from "drizzle-orm";
import { recordStaffActions, type StaffActionEntry, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { deliveries, routeOptimisations, routePlans, type RouteOptimisationResult, type RoutePlanSnapshot } from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { DispatchRefusedError } from "./dispatch-actions";
import { lockDrivers } from "./route-optimisation";
import { positionOffset } from "./route-plan-compute";
import { retimeDriverDays } from "./route-plan";
import { transitionDeliveries } from "./transition";

export const STALE_PLAN =
  "Los envíos del día cambiaron desde que se calculó este plan, así que no se aplicó. Vuelve a presionar «Optimizar rutas» para calcular uno nuevo.";
const GONE_PLAN = "Ese plan ya no está disponible. Vuelve a presionar «Optimizar rutas».";
const ALREADY_APPLIED = "Este plan ya se aplicó. Para cambiar las rutas, vuelve a presionar «Optimizar rutas».";

/**
 * "Aplicar plan" (issue 40, decision 0093): writes a computed plan to the deliveries, or refuses
 * and writes nothing. Its own key makes a double click one write. Locks, in order: the plan's row
 * (so two presses wait on each other holding nothing else), the drivers (users), the deliveries the
 * plan read (id order, decision 0025) — refusing if any of them changed since the plan read them
 * — then the day's vans. A stop the solver could not place but a driver already has stays on that
 * driver's route unless its id is in `remove` (staff's tick). The arrivals are then recomputed
 * from now in the plan's order (`retimeDriverDays`), so a plan applied a while later is timed for
 * when it is applied.
 */
export async function applyRoutePlan(
  db: Database,
  actor: StaffActor,
  input: { runId: number; date: string; applyKey: string; remove: readonly string[]; now: Date },
): Promise<{ result: RouteOptimisationResult; repeated: boolean }> {
  return inTransaction(db, async (tx) => {
    const [run] = await tx.select().from(routeOptimisations).where(eq(routeOptimisations.id, input.runId)).for("update");
    if (!run || run.deliveryDate !== input.date || !run.snapshot || !run.result.plan) throw new DispatchRefusedError(GONE_PLAN);
    if (run.status === "applied") {
      if (run.applyKey === input.applyKey) return { result: run.result, repeated: true };
      throw new DispatchRefusedError(ALREADY_APPLIED);
    }
    const snapshot = run.snapshot;
    await lockDrivers(tx, snapshot.vans);
    await lockUnchanged(tx, input.date, snapshot.read);
    const result = await writePlan(tx, actor, { date: input.date, now: input.now, plan: run.result, snapshot, remove: new Set(input.remove) });
    await tx
      .update(routeOptimisations)
      .set({ status: "applied", applyKey: input.applyKey, appliedBy: actor.email, appliedAt: input.now, result })
      .where(eq(routeOptimisations.id, run.id));
    return { result, repeated: false };
  });
}

/** Locks what the plan read (id order) and refuses when any of it changed since: the plan would be stale. */
async function lockUnchanged(tx: Transaction, date: string, read: RoutePlanSnapshot["read"]): Promise<void> {
  if (read.length === 0) return;
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
    .where(
      inArray(
        deliveries.id,
        read.map((stop) => stop.id),
      ),
    )
    .orderBy(asc(deliveries.id))
    .for("update");
  const now = new Map(rows.map((row) => [row.id, row]));
  const stale = read.some((stop) => {
    const row = now.get(stop.id);
    return (
      !row ||
      row.status !== stop.status ||
      row.date !== date ||
      row.window !== stop.window ||
      row.driverId !== stop.driverId ||
      row.position !== stop.position ||
      row.lat !== stop.lat ||
      row.lng !== stop.lng
    );
  });
  if (stale) throw new DispatchRefusedError(STALE_PLAN);
}

const before = (stop: { status: string; driverId: string | null; position: number | null }) => ({
  status: stop.status,
  assignedDriverId: stop.driverId,
  routePosition: stop.position,
});

async function writePlan(
  tx: Transaction,
  actor: StaffActor,
  input: { date: string; now: Date; plan: RouteOptimisationResult; snapshot: RoutePlanSnapshot; remove: Set<string> },
): Promise<RouteOptimisationResult> {
  const { date, now, plan, snapshot, remove } = input;
  const detail = plan.plan!;
  const read = new Map(snapshot.read.map((stop) => [stop.id, stop]));
  const audit: StaffActionEntry[] = [];
  let changed = 0;
  const removed: RouteOptimisationResult["unassigned"] = [];

  for (const van of detail.vans) {
    let position = positionOffset(snapshot.read, van.driverId);
    const stops = van.stops.filter((stop) => !(stop.keptReason && remove.has(stop.deliveryId)));
    const toSchedule = stops.filter((stop) => read.get(stop.deliveryId)?.status !== "scheduled").map((stop) => stop.deliveryId);
    await transitionDeliveries(tx, toSchedule, "scheduled", { actor: actor.email, now, note: `Asignado a ${van.driverName} (plan de rutas aplicado)` });
    for (const stop of stops) {
      position += 1;
      const was = read.get(stop.deliveryId)!;
      if (was.driverId === van.driverId && was.position === position && was.status === "scheduled") continue;
      changed += 1;
      await tx.update(deliveries).set({ assignedDriverId: van.driverId, routePosition: position, updatedAt: now }).where(eq(deliveries.id, stop.deliveryId));
      audit.push({
        action: "delivery.optimise",
        entityType: "delivery",
        entityId: stop.deliveryId,
        before: before(was),
        after: { status: "scheduled", assignedDriverId: van.driverId, routePosition: position },
      });
    }
    // Ticked by staff: a stop that does not fit comes off its driver's route, listed with its reason.
    for (const stop of van.stops.filter((each) => each.keptReason && remove.has(each.deliveryId))) {
      const was = read.get(stop.deliveryId)!;
      changed += 1;
      removed.push({ deliveryId: stop.deliveryId, deliveryNumber: stop.deliveryNumber, reason: stop.keptReason! });
      await tx
        .update(deliveries)
        .set({ assignedDriverId: null, routePosition: null, estimatedArrivalAt: null, updatedAt: now })
        .where(eq(deliveries.id, stop.deliveryId));
      audit.push({
        action: "delivery.optimise",
        entityType: "delivery",
        entityId: stop.deliveryId,
        before: before(was),
        after: { ...before(was), assignedDriverId: null, routePosition: null },
      });
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
  // Unassigned stops left with a stale place or time (never a driver's: those are kept above).
  for (const left of plan.unassigned) {
    const was = read.get(left.deliveryId);
    if (!was || (was.driverId === null && was.position === null)) continue;
    await tx.update(deliveries).set({ routePosition: null, estimatedArrivalAt: null, updatedAt: now }).where(eq(deliveries.id, left.deliveryId));
  }
  await retimeDriverDays(
    tx,
    detail.vans.map((van) => ({ date, driverId: van.driverId })),
    now,
  );
  await recordStaffActions(tx, actor, audit);
  const unassigned = [...plan.unassigned, ...removed].sort((a, b) => a.deliveryNumber.localeCompare(b.deliveryNumber));
  return {
    ...plan,
    routes: detail.vans.map((van) => ({
      driverId: van.driverId,
      driverName: van.driverName,
      stops: van.stops.filter((stop) => !(stop.keptReason && remove.has(stop.deliveryId))).length,
      drivingMinutes: van.drivingMinutes,
    })),
    unassigned,
    changed,
  };
}
