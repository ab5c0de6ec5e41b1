import { and, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { addDays, isoWeekday } from "@core/lima-dates";
import { closedDaysLookup, nationalHolidaysBetween, OPEN_ON_HOLIDAY, type ClosedDayRow } from "@core/peru-holidays";
import type { DeliveryWindow } from "@core/delivery-schedule";
import { readDistricts } from "../content/index.server";
import { deliveries, deliveryCapacityDefaults, deliveryCapacityOverrides, deliveryClosedDays, deliverySlots } from "../db/schema";
import type { Database } from "../db/client";
import type { DatabaseOrTransaction, Transaction } from "../db/transaction";
import { preparedStatement } from "../db/prepared-statement";
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

export interface SlotRequest {
  districtId: number;
  date: string;
  window: string;
}

export type SlotClaim =
  | { ok: true }
  | { ok: false; reason: "closed"; date: string; name: string }
  | { ok: false; reason: "full"; date: string; window: string; districtId: number; capacity: number; used: number };

export interface ClaimOptions {
  /** Deliveries being moved, or the claim's own already inserted: not counted as taken. */
  excludeDeliveryIds?: string[];
  /**
   * The requests' ClaimRules, when the caller read them already (without locks, as the claim
   * would: staff changing a figure meanwhile is decision 0037's accepted race), else read here.
   */
  rules?: ClaimRules;
}

/**
 * Claims a place for each request inside the caller's transaction, which must then insert (or
 * move) the deliveries before it commits. Each scope's slot row is created if missing and locked
 * (decision 0025: after the deliveries the claim is for; several in date, window, scope order)
 * and its open deliveries' count read in the same statement (decision 0102), so concurrent claims
 * for the last places take turns and never overbook. `excludeDeliveryIds`: deliveries being moved,
 * or the claim's own, not counted twice.
 */
export async function claimSlots(tx: Transaction, requests: SlotRequest[], options: ClaimOptions = {}): Promise<SlotClaim> {
  if (requests.length === 0) return { ok: true };
  const { closed, rules } = options.rules ?? (await loadClaimRules(tx, requests));
  if (closed) return { ok: false, reason: "closed", date: closed.date, name: closed.name };
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
    const used = await lockSlotAndCount(tx, scope, date, window, options.excludeDeliveryIds ?? []);
    if (used + places > scope.capacity!) return { ok: false, reason: "full", date, window, districtId, capacity: scope.capacity!, used };
  }
  return { ok: true };
}

/** What a claim reads before it locks anything: the first closed day among its dates, and the capacity figures that apply. */
export interface ClaimRules {
  closed: { date: string; name: string } | null;
  rules: CapacityRules;
}

/**
 * The columns `claimRulesFrom` reads ClaimRules from, in a statement of their own or beside
 * another read's (checkout's district read, decision 0063; it was three statements over whole
 * tables): the first closed day among the requests' dates, and the shop-wide and district figures
 * of their weekdays and districts.
 */
export function claimRulesColumns(requests: SlotRequest[]): SQL {
  const list = (values: (string | number)[], type: SQL) =>
    sql.join(
      [...new Set(values)].map((value) => sql`${value}::${type}`),
      sql`, `,
    );
  const dates = list(
    requests.map((request) => request.date),
    sql`date`,
  );
  const dayNumbers = list(
    requests.map((request) => isoWeekday(request.date)),
    sql`int`,
  );
  const districtIds = list(
    requests.map((request) => request.districtId),
    sql`int`,
  );
  return sql`(select coalesce(json_agg(json_build_object('date', c.closed_on::text, 'kind', c.kind, 'name', c.name)), '[]'::json) from ${deliveryClosedDays} c
        where c.closed_on in (${dates})) as claim_closed,
      (select coalesce(json_agg(json_build_array(d.day_number, d.delivery_window, d.capacity)), '[]'::json) from ${deliveryCapacityDefaults} d
        where d.day_number in (${dayNumbers})) as claim_defaults,
      (select coalesce(json_agg(json_build_array(o.district_id, o.day_number, o.delivery_window, o.capacity)), '[]'::json) from ${deliveryCapacityOverrides} o
        where o.district_id in (${districtIds}) and o.day_number in (${dayNumbers})) as claim_overrides`;
}

export interface ClaimRulesRow {
  /** Staff's calendar rows of the requests' dates (national holidays are worked out from the dates). */
  claim_closed: ClosedDayRow[];
  claim_defaults: [number, string, number][];
  claim_overrides: [number, number, string, number][];
}

/** The rules of claims on `dates`: the first of them that is closed, and the capacity figures. */
export function claimRulesFrom(row: ClaimRulesRow, dates: string[]): ClaimRules {
  const closedDays = closedDaysLookup(row.claim_closed);
  const firstClosed = [...dates].sort().find((date) => closedDays.has(date));
  return {
    closed: firstClosed === undefined ? null : { date: firstClosed, name: closedDays.get(firstClosed)! },
    rules: {
      defaults: new Map(row.claim_defaults.map(([dayNumber, window, capacity]) => [`${dayNumber}:${window}`, capacity])),
      overrides: new Map(row.claim_overrides.map(([districtId, dayNumber, window, capacity]) => [`${districtId}:${dayNumber}:${window}`, capacity])),
    },
  };
}

async function loadClaimRules(db: DatabaseOrTransaction, requests: SlotRequest[]): Promise<ClaimRules> {
  const result = await db.execute(sql`select ${claimRulesColumns(requests)}`);
  return claimRulesFrom(
    (result as unknown as { rows: ClaimRulesRow[] }).rows[0]!,
    requests.map((request) => request.date),
  );
}

/**
 * The slot row of a scope, date and window locked and its count of open deliveries read, in one
 * statement (decision 0102): under READ COMMITTED, a row a `SELECT … FOR UPDATE` waited for is
 * read again in its latest version, so the count is the one the previous holder committed. The
 * triggers of migration 0049 keep that count exact; `excludeDeliveryIds` open in the slot (the
 * claim's own delivery, or those being moved) are taken off it by their ids, so the statement's
 * cost does not grow with the slot's orders. The row exists for every slot that ever held an open
 * delivery; the first claim of any other creates it and locks it again.
 */
async function lockSlotAndCount(tx: Transaction, scope: Scope, date: string, window: string, excludeDeliveryIds: string[]): Promise<number> {
  const values = { date, window, scope: scope.key, excluded: excludeDeliveryIds };
  let [row] = await lockSlot(tx, values);
  if (!row) {
    await tx.insert(deliverySlots).values({ deliveryDate: date, deliveryWindow: window, scope: scope.key }).onConflictDoNothing();
    [row] = await lockSlot(tx, values);
  }
  return Number(row!.used);
}

const value = (name: string) => sql.placeholder(name);

const openStatuses = sql.join(
  OPEN_DELIVERY_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);

/** The advisory-lock class of slot counts (two-key form, "slot"), as migration 0049's triggers take it. */
const SLOT_LOCK_CLASS = sql.raw("1936486260");

/**
 * The "slot" advisory lock, shared, before the row (decision 0102): a change of which districts
 * have their own places takes it exclusively before recounting slot rows, so a claim never holds a
 * slot row while waiting for it. The CTE is joined below the row lock, so it is taken first.
 */
const lockSlot = preparedStatement<{ used: number }>("delivery_slot_claim", () => ({
  toSQL: () =>
    new PgDialect().sqlToQuery(sql`with slot_lock as materialized (select pg_advisory_xact_lock_shared(${SLOT_LOCK_CLASS}, 0))
      select (s.open_count - (select count(*) from ${deliveries} d
          where d.id = any(${value("excluded")}::uuid[]) and d.delivery_date = s.delivery_date and d.delivery_window = s.delivery_window
            and d.status in (${openStatuses}) and delivery_capacity_scope(d.district_id, d.delivery_date, d.delivery_window) = s.scope))::int as used
      from ${deliverySlots} s, slot_lock
      where s.delivery_date = ${value("date")} and s.delivery_window = ${value("window")} and s.scope = ${value("scope")}
      for update of s`),
}));

/**
 * The first date from `from` to `last` that is not closed, is `anyWeekdayOn` (default `from`:
 * the date the customer chose, whatever its weekday) or one of `weekdays` (any day when empty),
 * and has room in `window` for the district: in its own pool
 * where staff gave it a figure for that weekday and window, else in the shop's (decision 0037).
 * One statement, whatever the number of days it passes over (issue 13: the scheduler asked one
 * query per day). Read without locks: the caller claims the date under its slot's lock.
 *
 * A recursive query walks the days and carries whether the day has room; it takes the next day
 * only while the last had none, so it stops at the first with room, never counts the days after
 * it, and does not depend on the order in which PostgreSQL returns rows.
 */
export async function firstDayWithRoom(
  db: DatabaseOrTransaction,
  input: { districtId: number; window: string; from: string; last: string; weekdays: number[]; anyWeekdayOn?: string },
): Promise<{ date: string; scope: Scope } | null> {
  const { districtId, window } = input;
  const dayNumber = (day: SQL) => sql`extract(isodow from ${day})::int`;
  const openOn = (day: SQL, pool: SQL) => sql`(select count(*) from ${deliveries} dl
    where dl.delivery_date = ${day} and dl.delivery_window = ${window} and dl.status in (${openStatuses}) and ${pool})`;
  const ownCapacity = (day: SQL) => sql`(select o.capacity from ${deliveryCapacityOverrides} o
    where o.district_id = ${districtId} and o.day_number = ${dayNumber(day)} and o.delivery_window = ${window})`;
  const shopCapacity = (day: SQL) =>
    sql`(select c.capacity from ${deliveryCapacityDefaults} c where c.day_number = ${dayNumber(day)} and c.delivery_window = ${window})`;
  const served = (day: SQL) =>
    input.weekdays.length === 0
      ? sql`true`
      : sql`${dayNumber(day)} in (${sql.join(
          input.weekdays.map((weekday) => sql`${weekday}::int`),
          sql`, `,
        )})`;
  // A day is closed by staff's row, else when it is a national holiday (decision 0070): the
  // holidays of the days the walk may pass over, worked out here.
  const holidays = nationalHolidaysBetween(input.from, input.last).map((holiday) => sql`${holiday.date}::date`);
  const closedOn = (day: SQL) => sql`coalesce((select x.kind <> ${OPEN_ON_HOLIDAY} from ${deliveryClosedDays} x where x.closed_on = ${day}),
      ${holidays.length === 0 ? sql`false` : sql`${day} in (${sql.join(holidays, sql`, `)})`})`;
  // Null capacity in the district's pool means it has none of its own: the shop's pool counts;
  // null there too means no limit.
  const hasRoom = (day: SQL) => sql`((${day} = ${input.anyWeekdayOn ?? input.from}::date or ${served(day)})
    and not ${closedOn(day)}
    and coalesce(
      ${openOn(day, sql`dl.district_id = ${districtId}`)} < ${ownCapacity(day)},
      case when ${ownCapacity(day)} is null then ${openOn(
        day,
        sql`not exists (select 1 from ${deliveryCapacityOverrides} o2
          where o2.district_id = dl.district_id and o2.day_number = ${dayNumber(day)} and o2.delivery_window = ${window})`,
      )} < ${shopCapacity(day)} end,
      true))`;
  const first = sql`${input.from}::date`;
  const next = sql`(walk.day + 1)::date`;
  const result = await db.execute(sql`with recursive walk(day, room) as (
      select ${first}, ${hasRoom(first)}
      union all
      select ${next}, ${hasRoom(next)} from walk where not walk.room and walk.day < ${input.last}::date
    )
    select walk.day::text as day, ${ownCapacity(sql`walk.day`)} as own, ${shopCapacity(sql`walk.day`)} as shop from walk where walk.room`);
  const [row] = (result as unknown as { rows: { day: string; own: number | null; shop: number | null }[] }).rows;
  if (!row) return null;
  const scope: Scope =
    row.own !== null
      ? { key: `district:${districtId}`, districtId, capacity: Number(row.own) }
      : { key: "shop", districtId: null, capacity: row.shop === null ? null : Number(row.shop) };
  return { date: row.day, scope };
}

/**
 * Claims a place on the first date with room from `from` on (see `firstDayWithRoom`): that date's
 * slot is locked and counted again, as `claimSlot` does, and if a concurrent claim took its last
 * place meanwhile the search goes on from the next day. Slots are locked in ascending date order
 * (decision 0025). Null when no date up to `last` has room.
 */
export async function claimFirstSlotWithRoom(
  tx: Transaction,
  input: { districtId: number; window: string; from: string; last: string; weekdays: number[]; anyWeekdayOn?: string },
): Promise<{ date: string } | null> {
  let from = input.from;
  for (;;) {
    const found = await firstDayWithRoom(tx, { ...input, from, anyWeekdayOn: input.anyWeekdayOn ?? input.from });
    if (!found) return null;
    if (found.scope.capacity === null) return { date: found.date }; // no limit that day: nothing to count
    if ((await lockSlotAndCount(tx, found.scope, found.date, input.window, [])) < found.scope.capacity) return { date: found.date };
    if (found.date >= input.last) return null;
    from = addDays(found.date, 1);
  }
}

/** One place for one delivery: `claimSlots` for a single request. */
export function claimSlot(tx: Transaction, request: SlotRequest, options: ClaimOptions = {}): Promise<SlotClaim> {
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
    db
      .select({ date: deliveryClosedDays.closedOn, kind: deliveryClosedDays.kind, name: deliveryClosedDays.name })
      .from(deliveryClosedDays)
      .where(eq(deliveryClosedDays.closedOn, date)),
  ]);
  const usedBy = new Map(usage.map((row) => [`${row.districtId}:${row.window}`, row.used]));
  const districtIds = new Set(usage.map((row) => row.districtId));
  for (const key of rules.overrides.keys()) {
    const [districtId, day] = key.split(":").map(Number);
    if (day === dayNumber) districtIds.add(districtId!);
  }
  const names = await readDistricts(db, [...districtIds]);
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
  return { date, closedName: closedDaysLookup(closed).get(date) ?? null, shop, districts: rows };
}
