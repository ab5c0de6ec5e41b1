import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { districtDeliveryDays, districts } from "../db/schema";

export interface ServedDistrict {
  id: number;
  name: string;
  /** 1 = lunes … 7 = domingo, ascending. */
  dayNumbers: number[];
  /** Where a map of its addresses opens (issue 26); null until staff give it one. */
  center: { lat: number; lng: number } | null;
}

/** Districts the shop delivers to, by name (spec §7: district ordered by name). */
export const listServedDistricts = cachedRead(async (db: Database): Promise<ServedDistrict[]> => {
  const rows = await db
    .select({
      id: districts.id,
      name: districts.name,
      dayNumber: districtDeliveryDays.dayNumber,
      centerLat: districts.centerLat,
      centerLng: districts.centerLng,
    })
    .from(districts)
    .leftJoin(districtDeliveryDays, eq(districtDeliveryDays.districtId, districts.id))
    .where(eq(districts.served, true))
    .orderBy(asc(districts.name), asc(districtDeliveryDays.dayNumber));

  const byId = new Map<number, ServedDistrict>();
  for (const row of rows) {
    const center = row.centerLat !== null && row.centerLng !== null ? { lat: row.centerLat, lng: row.centerLng } : null;
    const district = byId.get(row.id) ?? { id: row.id, name: row.name, dayNumbers: [], center };
    if (row.dayNumber !== null) district.dayNumbers.push(row.dayNumber);
    byId.set(row.id, district);
  }
  // Spanish collation is not guaranteed on every server; sort accents correctly here.
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name, "es"));
});
