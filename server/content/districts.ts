import { and, asc, eq, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import type { GeoPoint } from "@core/geo";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { districtDeliveryDays, districts } from "../db/schema";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";

/*
 * The districts table and its delivery weekdays belong to this domain (decision 0085): every other
 * domain reads and writes them through these functions. The rules about districts (capacity,
 * cut-off, what unserving refuses) live in deliveries, which calls them.
 */

export type District = typeof districts.$inferSelect;

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

/**
 * One district's row, or null for an unknown id, read fresh by the handle given. `lock` takes the
 * row lock decision 0053 names: `share` for a checkout that references it, `no key update` for a
 * change of its settings (rows that merely reference it do not wait).
 */
export async function readDistrict(db: DatabaseOrTransaction, districtId: number, lock?: "share" | "no key update"): Promise<District | null> {
  const query = db.select().from(districts).where(eq(districts.id, districtId));
  const [row] = lock ? await query.for(lock) : await query;
  return row ?? null;
}

/** The rows of these districts (every district when `ids` is left out), in no particular order. */
export async function readDistricts(db: DatabaseOrTransaction, ids?: readonly number[]): Promise<District[]> {
  if (ids?.length === 0) return [];
  return ids
    ? db
        .select()
        .from(districts)
        .where(inArray(districts.id, [...ids]))
    : db.select().from(districts);
}

/** A district's centre (issue 26), or null while it has none or the district is unknown. */
export async function readDistrictCentre(db: DatabaseOrTransaction, districtId: number): Promise<GeoPoint | null> {
  const [row] = await db.select({ lat: districts.centerLat, lng: districts.centerLng }).from(districts).where(eq(districts.id, districtId));
  return row && row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null;
}

/**
 * The districts' rows as a subquery to join beside other tables' columns, e.g.
 * `.leftJoin(districtsToJoin, eq(districtsToJoin.id, users.districtId))` and `districtsToJoin.name`
 * in the select (PostgreSQL plans it as the table itself).
 */
export const districtsToJoin = new QueryBuilder()
  .select({ id: districts.id, name: districts.name, staffNotes: districts.staffNotes, centerLat: districts.centerLat, centerLng: districts.centerLng })
  .from(districts)
  .as("district_rows");

/**
 * The checkout's check of its district as one subquery of its order statement (decision 0069): the
 * district's id when it is served, share-locked so a change of its settings waits (decision 0053).
 */
export function servedDistrictShareLocked(tx: DatabaseOrTransaction, districtId: Placeholder) {
  return tx
    .select({ id: districts.id })
    .from(districts)
    .where(and(eq(districts.id, districtId), eq(districts.served, true)))
    .for("share");
}

/**
 * One district as a subquery to join in a raw statement (decision 0063: the checkout reads its
 * district with the calendar in one statement): columns `id`, `name`, `served`, `own_cutoff` and
 * `day_numbers` (its weekdays, ascending); no row for an unknown id.
 */
export function districtWithWeekdaysRow(districtId: number): SQL {
  return sql`select d.id, d.name, d.served, d.cutoff_time as own_cutoff,
      array(select dd.day_number from ${districtDeliveryDays} dd where dd.district_id = d.id order by dd.day_number) as day_numbers
    from ${districts} d where d.id = ${districtId}::int`;
}

/** The weekdays (1 = lunes … 7 = domingo, ascending) a district receives deliveries on. */
export async function readDistrictWeekdays(db: DatabaseOrTransaction, districtId: number): Promise<number[]> {
  return (await readWeekdaysOfDistricts(db, [districtId])).get(districtId) ?? [];
}

/** The weekdays of several districts (every district when `ids` is left out), ascending; a district without any is absent. */
export async function readWeekdaysOfDistricts(db: DatabaseOrTransaction, ids?: readonly number[]): Promise<Map<number, number[]>> {
  if (ids?.length === 0) return new Map();
  const rows = await db
    .select()
    .from(districtDeliveryDays)
    .where(ids ? inArray(districtDeliveryDays.districtId, [...ids]) : undefined)
    .orderBy(asc(districtDeliveryDays.dayNumber));
  const byDistrict = new Map<number, number[]>();
  for (const row of rows) byDistrict.set(row.districtId, [...(byDistrict.get(row.districtId) ?? []), row.dayNumber]);
  return byDistrict;
}

/**
 * Writes a district's settings in the caller's transaction, which has locked it (`readDistrict`
 * with `no key update`); `weekdays`, when given, replace its delivery weekdays.
 */
export async function changeDistrict(
  tx: Transaction,
  districtId: number,
  changes: Partial<Pick<District, "served" | "cutoffTime" | "staffNotes" | "centerLat" | "centerLng" | "doorPayment">>,
  weekdays?: readonly number[],
): Promise<void> {
  if (Object.keys(changes).length > 0) await tx.update(districts).set(changes).where(eq(districts.id, districtId));
  if (!weekdays) return;
  await tx.delete(districtDeliveryDays).where(eq(districtDeliveryDays.districtId, districtId));
  if (weekdays.length > 0) await tx.insert(districtDeliveryDays).values(weekdays.map((dayNumber) => ({ districtId, dayNumber })));
}
