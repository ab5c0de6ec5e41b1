import { eq } from "drizzle-orm";
import type { GeoPoint } from "@core/geo";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { districts } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction } from "../db/transaction";

/** A district's centre as staff see it on /admin/distritos/{id} (issue 26). */
export async function districtCentre(db: Database, districtId: number): Promise<GeoPoint | null> {
  const [row] = await db.select({ lat: districts.centerLat, lng: districts.centerLng }).from(districts).where(eq(districts.id, districtId));
  return row && row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null;
}

/**
 * Staff correct a district's centre (issue 26): where its stops without a pin are routed and where
 * the checkout's map opens. The district is locked as its other settings are (decision 0053); the
 * change is audited and reaches every server process's storefront cache. Saving the same point
 * again changes nothing.
 */
export async function setDistrictCentre(
  db: Database,
  actor: StaffActor,
  input: { districtId: number; centre: GeoPoint },
): Promise<"saved" | "unchanged" | "not_found"> {
  return inTransaction(db, async (tx) => {
    const [district] = await tx.select().from(districts).where(eq(districts.id, input.districtId)).for("no key update");
    if (!district) return "not_found";
    if (district.centerLat === input.centre.lat && district.centerLng === input.centre.lng) return "unchanged";
    await tx.update(districts).set({ centerLat: input.centre.lat, centerLng: input.centre.lng }).where(eq(districts.id, district.id));
    await recordStaffAction(tx, actor, {
      action: "district.center",
      entityType: "district",
      entityId: String(district.id),
      before: { lat: district.centerLat, lng: district.centerLng },
      after: input.centre,
    });
    await invalidateStorefront(tx, `district ${district.id}`);
    return "saved";
  });
}
