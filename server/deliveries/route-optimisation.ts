import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { routeOptimisations, users, type RouteOptimisationResult } from "../db/schema";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";
import type { RoutingEngine } from "../routing/index.server";
import { DispatchRefusedError } from "./dispatch-actions";
import { computeDayPlan } from "./route-plan-compute";
import type { VanShift } from "./route-plan";
import { loadRouteSettings } from "./route-settings";

export type { RouteOptimisationResult };

/** The most vans one run plans. */
export const MAX_VANS = 50;

export interface PlannedRun {
  id: number;
  status: "planned" | "applied";
  result: RouteOptimisationResult;
  createdAt: Date;
  createdBy: string;
}

/**
 * "Optimizar rutas" (issues 26 and 40, decision 0093): computes a plan for the chosen vans and keeps
 * it, with what it read, as a `planned` row; it writes no delivery. Staff review it beside the
 * current routes and write it with "Aplicar plan" (`applyRoutePlan`). The form's key makes a double
 * click one computation. The built-in solver is bounded by work, so the same day, vans and settings
 * give the same plan on any machine (unless its time cap cut the search, which the plan says).
 */
export async function planRoutes(
  db: Database,
  actor: StaffActor,
  input: { date: string; vans: VanShift[]; requestKey: string; now: Date; engine?: RoutingEngine },
): Promise<{ run: PlannedRun; repeated: boolean }> {
  const earlier = await findRun(db, input.requestKey);
  if (earlier) return { run: earlier, repeated: true };
  if (input.vans.length === 0) throw new DispatchRefusedError("Elige al menos un repartidor para optimizar.");
  if (input.vans.length > MAX_VANS) throw new DispatchRefusedError(`Elige como máximo ${MAX_VANS} repartidores a la vez.`);
  if (new Set(input.vans.map((van) => van.driverId)).size !== input.vans.length) throw new DispatchRefusedError("Cada repartidor va una sola vez.");
  // Before the solver, whose work grows with the vans (issue 39: 49 invented ids cost 2.3 s of
  // CPU): every van must be an active repartidor's. Checked again under the lock when applied.
  const active = await activeDrivers(db, input.vans);
  if (active.length !== input.vans.length) throw new DispatchRefusedError(INACTIVE_DRIVERS);
  const settings = await loadRouteSettings(db);
  const driverNames = await namesOfDrivers(db, input.vans);
  const { result, snapshot } = await computeDayPlan(db, { ...input, driverNames }, settings);
  // Two presses of one key computed at once: the first stored is the plan, the other is a repeat.
  const inserted = await db
    .insert(routeOptimisations)
    .values({ requestKey: input.requestKey, deliveryDate: input.date, createdBy: actor.email, result, snapshot, status: "planned", createdAt: input.now })
    .onConflictDoNothing({ target: routeOptimisations.requestKey })
    .returning({ id: routeOptimisations.id });
  const run = await findRun(db, input.requestKey);
  return { run: run!, repeated: inserted.length === 0 };
}

const runColumns = {
  id: routeOptimisations.id,
  status: routeOptimisations.status,
  result: routeOptimisations.result,
  createdAt: routeOptimisations.createdAt,
  createdBy: routeOptimisations.createdBy,
};

async function findRun(db: DatabaseOrTransaction, requestKey: string): Promise<PlannedRun | null> {
  const [row] = await db.select(runColumns).from(routeOptimisations).where(eq(routeOptimisations.requestKey, requestKey));
  return row ? { ...row, status: row.status as PlannedRun["status"] } : null;
}

/** The day's latest run, as Despacho shows it: a plan waiting for "Aplicar plan", or the last one applied. */
export async function latestRouteOptimisation(db: Database, date: string): Promise<PlannedRun | null> {
  const [row] = await db
    .select(runColumns)
    .from(routeOptimisations)
    .where(eq(routeOptimisations.deliveryDate, date))
    .orderBy(desc(routeOptimisations.id))
    .limit(1);
  return row ? { ...row, status: row.status as PlannedRun["status"] } : null;
}

export const INACTIVE_DRIVERS = "Elige repartidores activos. No se cambió ninguna ruta.";

/** The chosen drivers that are active repartidores (the caller has made the ids unique). */
export const activeDrivers = (db: DatabaseOrTransaction, vans: readonly { driverId: string }[]) =>
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

/** The chosen drivers, locked (users before deliveries, decision 0025): each must still be an active repartidor. */
export async function lockDrivers(tx: Transaction, vans: readonly { driverId: string }[]): Promise<void> {
  const rows = await activeDrivers(tx, vans).for("update");
  if (rows.length !== vans.length) throw new DispatchRefusedError(INACTIVE_DRIVERS);
}

/** Names of the chosen drivers (a plan reads only their stops and the unassigned ones). */
async function namesOfDrivers(db: Database, vans: readonly VanShift[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(
      inArray(
        users.id,
        vans.map((van) => van.driverId),
      ),
    );
  return new Map(rows.map((row) => [row.id, `${row.firstName} ${row.lastName}`.trim()]));
}
