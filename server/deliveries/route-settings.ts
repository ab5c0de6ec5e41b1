import { eq } from "drizzle-orm";
import { ROUTE_SETTING_DEFAULTS, type CapacityUnit, type RouteSettingsValues } from "@core/route-schemas";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { DatabaseOrTransaction } from "../db/transaction";
import type { Database } from "../db/client";
import { routeSettings } from "../db/schema";
import { inTransaction } from "../db/transaction";

export type RouteSettings = RouteSettingsValues;

/** The route settings (issue 26): the stored row, or the defaults before staff ever saved them. */
export async function loadRouteSettings(db: DatabaseOrTransaction): Promise<RouteSettings> {
  const [row] = await db.select().from(routeSettings).where(eq(routeSettings.id, 1));
  if (!row) return { ...ROUTE_SETTING_DEFAULTS };
  return {
    depotLabel: row.depotLabel,
    depotLat: row.depotLat,
    depotLng: row.depotLng,
    serviceMinutes: row.serviceMinutes,
    detourFactor: row.detourFactor,
    averageSpeedKmh: row.averageSpeedKmh,
    vanCapacity: row.vanCapacity,
    vanCapacityUnit: row.vanCapacityUnit as CapacityUnit,
    shiftStart: row.shiftStart,
    shiftEnd: row.shiftEnd,
  };
}

/**
 * /admin/ajustes, "Rutas": saves the settings (the singleton row, decision 0025's reference rows)
 * with one audit row saying what changed. Saving the same values again changes nothing.
 */
export async function saveRouteSettings(db: Database, actor: StaffActor, input: { values: RouteSettings; now: Date }): Promise<"saved" | "unchanged"> {
  return inTransaction(db, async (tx) => {
    const [current] = await tx.select().from(routeSettings).where(eq(routeSettings.id, 1)).for("update");
    const before = current ? await loadRouteSettings(tx) : null;
    if (before && (Object.keys(input.values) as (keyof RouteSettings)[]).every((key) => before[key] === input.values[key])) return "unchanged";
    await tx
      .insert(routeSettings)
      .values({ id: 1, ...input.values, updatedAt: input.now })
      .onConflictDoUpdate({ target: routeSettings.id, set: { ...input.values, updatedAt: input.now } });
    await recordStaffAction(tx, actor, {
      action: "settings.routes",
      entityType: "route_settings",
      entityId: "1",
      before: before ?? ROUTE_SETTING_DEFAULTS,
      after: input.values,
    });
    return "saved";
  });
}
