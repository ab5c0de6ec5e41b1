import type { GeoPoint } from "@core/geo";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { changeDistrict, readDistrict } from "../content/index.server";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction } from "../db/transaction";

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
    const district = await readDistrict(tx, input.districtId, "no key update");
    if (!district) return "not_found";
    if (district.centerLat === input.centre.lat && district.centerLng === input.centre.lng) return "unchanged";
    await changeDistrict(tx, district.id, { centerLat: input.centre.lat, centerLng: input.centre.lng });
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
