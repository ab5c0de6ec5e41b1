import { and, eq, gte, inArray, lte, notInArray, sql, type SQL } from "drizzle-orm";
import { isoWeekday } from "@core/lima-dates";
import type { DeliveryWindow } from "@core/delivery-schedule";
import { deliveries, deliveryCapacityDefaults, deliveryCapacityOverrides, deliveryClosedDays, deliverySlots, districts } from "../db/schema";
import type { Database } from "../db/client";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";
import { OPEN_DELIVERY_STATUSES } from "./delivery-status";

/**
 * Delivery capacity (issue 10; decisions.md, Back office): places per date and window, in the
 * shop-wide pool or, where staff gave a district its own figure for that weekday and window, in
 * the district's own. A delivery takes its place while it is open (OPEN_DELIVERY_STATUSES): from
 * the order's placing until it is cancelled, which an expired or failed order does to it.
 */
export const DELIVERY_WINDOWS: readonly DeliveryWindow[] = ["manana", "tarde"];

export interface CapacityRules {
  /** `${dayNumber}:${window}` → places in the shop-wide pool; a missing key means no limit. */
  defaults: Map<string, number>;
  /** `${districtId}:${dayNumber}:${window}` → the district's own places. */
  overrides: Map<string, number>;
}

export async function loadCapacityRules(db: DatabaseOrTransaction): Promise<CapacityRules> {
  // One after the other: `db` may be a transaction, whose single connection takes one query at a time.
  const defaults = await db.select().from(deliveryCapacityDefaults);
  const overrides = await db.select().from(deliveryCapacityOverrides);
  return {
    defaults: new Map(defaults.map((row) => [`${row.dayNumber}:${row.deliveryWindow}`, row.capacity])),
    overrides: new Map(overrides.map((row) => [`${row.districtId}:${row.dayNumber}:${row.deliveryWindow}`, row.capacity])),
  };
}

interface Scope {
  /** `shop` or `district:<id>`: the key of the slot row a claim locks. */
  key: string;
  /** The district counted on its own; null for the shop-wide pool. */
  districtId: number | null;
  /** null: no limit set, nothing to count. */
  capacity: number | null;
}

function scopeOf(rules: CapacityRules, districtId: number, date: string, window: string): Scope {
  const dayNumber = isoWeekday(date);
  const own = rules.overrides.get(`${districtId}:${dayNumber}:${window}`);
  if (own !== undefined) return { key: `district:${districtId}`, districtId, capacity: own };
  return { key: "shop", districtId: null, capacity: rules.defaults.get(`${dayNumber}:${window}`) ?? null };
}

/** Open deliveries of one scope on a date and window. The shop's pool counts every district without its own figure then. */
async function usedPlaces(db: DatabaseOrTransaction, scope: Scope, date: string, window: string, excludeDeliveryIds: string[]): Promise<number> {
  const conditions: SQL[] = [eq(deliveries.deliveryDate, date), eq(deliveries.deliveryWindow, window), inArray(deliveries.status, [...OPEN_DELIVERY_STATUSES])];
  if (scope.districtId !== null) conditions.push(eq(deliveries.districtId, scope.districtId));
  else {
    conditions.push(
      sql`not exists (select 1 from ${deliveryCapacityOverrides} o where o.district_id = ${deliveries.districtId} and o.day_number = ${isoWeekday(date)} and o.delivery_window = ${window})`,
    );
  }
  if (excludeDeliveryIds.length > 0) conditions.push(notInArray(deliveries.id, excludeDeliveryIds));
  const [row] = await db
    .select({ used: sql<number>`count(*)::int` })
    .from(deliveries)
    .where(and(...conditions));
  return Number(row?.used ?? 0);
}

export interface SlotRequest {
  districtId: number;
  date: string;
  window: string;
}

export type SlotClaim =
  | { ok: true }
  | { ok: false; reason: "closed"; date: string; name: string }
  | { ok: false; reason: "full"; date: string; window: string; districtId: number; capacity: number; used: number };

/**
 * Claims a place for each request inside the caller's transaction, which must then insert (or
 * move) the deliveries before it commits. Each scope's slot row is created if missing and locked
 * (decision 0025: after the deliveries the claim is for; several in date, window, scope order),
 * and only then are its open deliveries counted, so concurrent claims for the last places take
 * turns and never overbook. `excludeDeliveryIds`: deliveries being moved, not counted twice.
 */
export async function claimSlots(tx: Transaction, requests: SlotRequest[], options: { excludeDeliveryIds?: string[] } = {}): Promise<SlotClaim> {
  if (requests.length === 0) return { ok: true };
  const dates = [...new Set(requests.map((request) => request.date))];
  const closed = await tx
    .select({ date: deliveryClosedDays.closedOn, name: deliveryClosedDays.name })
    .from(deliveryClosedDays)
    .where(inArray(deliveryClosedDays.closedOn, dates));
  if (closed[0]) return { ok: false, reason: "closed", date: closed[0].date, name: closed[0].name };

  const rules = await loadCapacityRules(tx);
  const wanted = new Map<string, { scope: Scope; date: string; window: string; places: number; districtId: number }>();
  for (const request of requests) {
    const scope = scopeOf(rules, request.districtId, request.date, request.window);
    if (scope.capacity === null) continue;
    const key = `${request.date}|${request.window}|${scope.key}`;
    const entry = wanted.get(key) ?? { scope, date: request.date, window: request.window, places: 0, districtId: request.districtId };
    entry.places += 1;
    wanted.set(key, entry);
  }
  for (const key of [...wanted.keys()].sort()) {
    const { scope, date, window, places, districtId } = wanted.get(key)!;
    await tx.insert(deliverySlots).values({ deliveryDate: date, deliveryWindow: window, scope: scope.key }).onConflictDoNothing();
    await tx
      .select({ scope: deliverySlots.scope })
      .from(deliverySlots)
      .where(and(eq(deliverySlots.deliveryDate, date), eq(deliverySlots.deliveryWindow, window), eq(deliverySlots.scope, scope.key)))
      .for("update");
    const used = await usedPlaces(tx, scope, date, window, options.excludeDeliveryIds ?? []);
    if (used + places > scope.capacity!) return { ok: false, reason: "full", date, window, districtId, capacity: scope.capacity!, used };
  }
  return { ok: true };
}

/** One place for one delivery: `claimSlots` for a single request. */
export function claimSlot(tx: Transaction, request: SlotRequest, options: { excludeDeliveryIds?: string[] } = {}): Promise<SlotClaim> {
  return claimSlots(tx, [request], options);
}

export class SlotUnavailableError extends Error {
  constructor(readonly claim: Exclude<SlotClaim, { ok: true }>) {
    super(
      claim.reason === "closed"
        ? `No deliveries on ${claim.date} (${claim.name})`
        : `No room on ${claim.date} ${claim.window} (${claim.used}/${claim.capacity})`,
    );
  }
}

/** `claimSlots`, throwing SlotUnavailableError (for the caller to roll back) when a date is closed or full. */
export async function assertSlotsAvailable(tx: Transaction, requests: SlotRequest[], options: { excludeDeliveryIds?: string[] } = {}): Promise<void> {
  const claim = await claimSlots(tx, requests, options);
  if (!claim.ok) throw new SlotUnavailableError(claim);
}

/** Open deliveries per date, window and district between two dates. */
async function usageBetween(db: DatabaseOrTransaction, from: string, to: string) {
  const rows = await db
    .select({ date: deliveries.deliveryDate, window: deliveries.deliveryWindow, districtId: deliveries.districtId, used: sql<number>`count(*)::int` })
    .from(deliveries)
    .where(and(gte(deliveries.deliveryDate, from), lte(deliveries.deliveryDate, to), inArray(deliveries.status, [...OPEN_DELIVERY_STATUSES])))
    .groupBy(deliveries.deliveryDate, deliveries.deliveryWindow, deliveries.districtId);
  return rows.map((row) => ({ ...row, used: Number(row.used) }));
}

/**
 * Reads a range's usage once and answers "is there room" for any district, date and window in it
 * without another query (the checkout asks it for every served district and date).
 */
export async function roomBetween(db: DatabaseOrTransaction, from: string, to: string): Promise<(districtId: number, date: string, window: string) => boolean> {
  const rules = await loadCapacityRules(db);
  const usage = await usageBetween(db, from, to);
  const used = new Map<string, number>();
  for (const row of usage) {
    const scope = scopeOf(rules, row.districtId, row.date, row.window);
    const key = `${row.date}|${row.window}|${scope.key}`;
    used.set(key, (used.get(key) ?? 0) + row.used);
  }
  return (districtId, date, window) => {
    const scope = scopeOf(rules, districtId, date, window);
    return scope.capacity === null || (used.get(`${date}|${window}|${scope.key}`) ?? 0) < scope.capacity;
  };
}

export interface DayCapacity {
  date: string;
  /** The closed day's name when nobody delivers that date. */
  closedName: string | null;
  /** The shop-wide pool per window: its places (null: no limit) and those taken by districts without their own figure. */
  shop: { window: DeliveryWindow; capacity: number | null; used: number }[];
  /** Each district with open deliveries that day or its own figure for the weekday, per window. */
  districts: { districtId: number; districtName: string; window: DeliveryWindow; used: number; ownCapacity: number | null }[];
}

/** A day's places against capacity, for the Despacho page (on the pool: its three reads run at once). */
export async function capacityForDay(db: Database, date: string): Promise<DayCapacity> {
  const dayNumber = isoWeekday(date);
  const [rules, usage, closed] = await Promise.all([
    loadCapacityRules(db),
    usageBetween(db, date, date),
    db.select({ name: deliveryClosedDays.name }).from(deliveryClosedDays).where(eq(deliveryClosedDays.closedOn, date)),
  ]);
  const usedBy = new Map(usage.map((row) => [`${row.districtId}:${row.window}`, row.used]));
  const districtIds = new Set(usage.map((row) => row.districtId));
  for (const key of rules.overrides.keys()) {
    const [districtId, day] = key.split(":").map(Number);
    if (day === dayNumber) districtIds.add(districtId!);
  }
  const names =
    districtIds.size === 0
      ? []
      : await db
          .select({ id: districts.id, name: districts.name })
          .from(districts)
          .where(inArray(districts.id, [...districtIds]));
  const rows: DayCapacity["districts"] = [];
  for (const { id, name } of names.sort((a, b) => a.name.localeCompare(b.name, "es"))) {
    for (const window of DELIVERY_WINDOWS) {
      const used = usedBy.get(`${id}:${window}`) ?? 0;
      const ownCapacity = rules.overrides.get(`${id}:${dayNumber}:${window}`) ?? null;
      if (used > 0 || ownCapacity !== null) rows.push({ districtId: id, districtName: name, window, used, ownCapacity });
    }
  }
  const shop = DELIVERY_WINDOWS.map((window) => ({
    window,
    capacity: rules.defaults.get(`${dayNumber}:${window}`) ?? null,
    used: rows.filter((row) => row.window === window && row.ownCapacity === null).reduce((sum, row) => sum + row.used, 0),
  }));
  return { date, closedName: closed[0]?.name ?? null, shop, districts: rows };
}
