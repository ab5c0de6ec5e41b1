import { and, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { DEFAULT_CUTOFF_TIME, parseCutoffTime } from "@core/delivery-calendar";
import { freeText } from "@core/input-schemas";
import { z } from "@core/zod";
import { fieldErrors } from "@core/checkout-schema";
import { recordStaffAction, recordStaffActions, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { changeDistrict, readDistrict, readDistricts, readDistrictWeekdays, readWeekdaysOfDistricts } from "../content/index.server";
import { deliveries, deliveryCalendarSettings, deliveryCapacityDefaults, deliveryCapacityOverrides, subscriptions } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction, type DatabaseOrTransaction, type Transaction } from "../db/transaction";
import { MAX_WINDOW_CAPACITY } from "./calendar-admin";
import { DELIVERY_WINDOWS } from "./capacity";
import { OPEN_DELIVERY_STATUSES } from "./delivery-status";

/**
 * Staff's side of each district (/admin/distritos, issue 11; decision 0053): served or not, its
 * weekdays, its own cut-off, notes for the team, and its own places per weekday and window. Every
 * change is audited and invalidates the storefront caches (decision 0040) in its own transaction,
 * so the footer and the checkout follow at once in every process.
 */

export const MAX_DISTRICT_NOTES = 500;

/** What is still booked for a district: why it cannot stop being served (decision 0053). */
export interface DistrictCommitments {
  /** Open deliveries dated today or later. */
  openDeliveries: number;
  /** Subscriptions not cancelled (pending payment, active, paused, past due): each will ask for deliveries. */
  liveSubscriptions: number;
}

export interface DistrictListRow extends DistrictCommitments {
  id: number;
  name: string;
  province: string;
  served: boolean;
  dayNumbers: number[];
  cutoffTime: string | null;
  ownCapacities: number;
  hasNotes: boolean;
}

export interface DistrictStaffView extends DistrictCommitments {
  id: number;
  name: string;
  province: string;
  served: boolean;
  dayNumbers: number[];
  cutoffTime: string | null;
  staffNotes: string;
  /** Issue 38: whether pago contra entrega is offered here. */
  doorPayment: boolean;
  shopCutoffTime: string;
  /** Every weekday × window: the district's own places (null: the shop-wide pool) and the pool's figure. */
  capacities: { dayNumber: number; window: string; own: number | null; shop: number | null }[];
}

const LIVE_SUBSCRIPTION = ne(subscriptions.status, "cancelled");

async function openDeliveriesPerDistrict(db: DatabaseOrTransaction, today: string, districtIds?: number[]) {
  const conditions = [gte(deliveries.deliveryDate, today), inArray(deliveries.status, [...OPEN_DELIVERY_STATUSES])];
  if (districtIds) conditions.push(inArray(deliveries.districtId, districtIds));
  const rows = await db
    .select({ districtId: deliveries.districtId, count: sql<number>`count(*)::int` })
    .from(deliveries)
    .where(and(...conditions))
    .groupBy(deliveries.districtId);
  return new Map(rows.map((row) => [row.districtId, Number(row.count)]));
}

async function liveSubscriptionsPerDistrict(db: DatabaseOrTransaction, districtIds?: number[]) {
  const conditions = [LIVE_SUBSCRIPTION];
  if (districtIds) conditions.push(inArray(subscriptions.districtId, districtIds));
  const rows = await db
    .select({ districtId: subscriptions.districtId, count: sql<number>`count(*)::int` })
    .from(subscriptions)
    .where(and(...conditions))
    .groupBy(subscriptions.districtId);
  return new Map(rows.map((row) => [row.districtId, Number(row.count)]));
}

async function commitmentsOf(db: DatabaseOrTransaction, districtId: number, today: string): Promise<DistrictCommitments> {
  const open = await openDeliveriesPerDistrict(db, today, [districtId]);
  const live = await liveSubscriptionsPerDistrict(db, [districtId]);
  return { openDeliveries: open.get(districtId) ?? 0, liveSubscriptions: live.get(districtId) ?? 0 };
}

/** Every district of the table (served first, then by name), with what each still has booked. Five aggregate reads, whatever the count. */
export async function listDistrictsForStaff(db: Database, today: string): Promise<DistrictListRow[]> {
  const [rows, days, own, open, live] = await Promise.all([
    readDistricts(db),
    readWeekdaysOfDistricts(db),
    db
      .select({ districtId: deliveryCapacityOverrides.districtId, count: sql<number>`count(*)::int` })
      .from(deliveryCapacityOverrides)
      .groupBy(deliveryCapacityOverrides.districtId),
    openDeliveriesPerDistrict(db, today),
    liveSubscriptionsPerDistrict(db),
  ]);
  const ownBy = new Map(own.map((row) => [row.districtId, Number(row.count)]));
  return rows
    .map((row) => ({
      id: row.id,
      name: row.name,
      province: row.province,
      served: row.served,
      dayNumbers: days.get(row.id) ?? [],
      cutoffTime: row.cutoffTime,
      ownCapacities: ownBy.get(row.id) ?? 0,
      hasNotes: Boolean(row.staffNotes),
      openDeliveries: open.get(row.id) ?? 0,
      liveSubscriptions: live.get(row.id) ?? 0,
    }))
    .sort((a, b) => Number(b.served) - Number(a.served) || a.name.localeCompare(b.name, "es"));
}

/** One district as its page shows it; null for an unknown id. */
export async function loadDistrictForStaff(db: Database, districtId: number, today: string): Promise<DistrictStaffView | null> {
  const district = await readDistrict(db, districtId);
  if (!district) return null;
  const [days, own, defaults, [settings], commitments] = await Promise.all([
    readDistrictWeekdays(db, districtId),
    db.select().from(deliveryCapacityOverrides).where(eq(deliveryCapacityOverrides.districtId, districtId)),
    db.select().from(deliveryCapacityDefaults),
    db.select({ cutoffTime: deliveryCalendarSettings.cutoffTime }).from(deliveryCalendarSettings).where(eq(deliveryCalendarSettings.id, 1)),
    commitmentsOf(db, districtId, today),
  ]);
  const ownBy = new Map(own.map((row) => [`${row.dayNumber}:${row.deliveryWindow}`, row.capacity]));
  const shopBy = new Map(defaults.map((row) => [`${row.dayNumber}:${row.deliveryWindow}`, row.capacity]));
  return {
    id: district.id,
    name: district.name,
    province: district.province,
    served: district.served,
    dayNumbers: days,
    cutoffTime: district.cutoffTime,
    staffNotes: district.staffNotes ?? "",
    doorPayment: district.doorPayment,
    shopCutoffTime: settings?.cutoffTime ?? DEFAULT_CUTOFF_TIME,
    capacities: [1, 2, 3, 4, 5, 6, 7].flatMap((dayNumber) =>
      DELIVERY_WINDOWS.map((window) => ({
        dayNumber,
        window,
        own: ownBy.get(`${dayNumber}:${window}`) ?? null,
        shop: shopBy.get(`${dayNumber}:${window}`) ?? null,
      })),
    ),
    ...commitments,
  };
}

export type DistrictChangeResult =
  { ok: true; changed: boolean } | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> } | { ok: false; reason: "not_found" };

/** The settings form as staff send it: "si" for served, the weekdays ticked, an 'HH:MM' or blank cut-off, notes. */
export const districtSettingsSchema = z
  .object({
    served: z.boolean(),
    dayNumbers: z.array(z.number().int().min(1, "Elige días de lunes a domingo").max(7, "Elige días de lunes a domingo")).max(7),
    cutoffTime: z
      .string()
      .trim()
      .refine((value) => value === "" || parseCutoffTime(value) !== null, "Escribe la hora como HH:MM (por ejemplo 14:00) o déjala vacía"),
    staffNotes: freeText(MAX_DISTRICT_NOTES).transform((value) => value.trim()),
    /** Issue 38: absent keeps what is stored. */
    doorPayment: z.boolean().optional(),
  })
  .refine((value) => !value.served || value.dayNumbers.length > 0, {
    path: ["dayNumbers"],
    message: "Un distrito atendido necesita al menos un día de reparto",
  });

/**
 * Locks the district row first (decision 0053: a district before everything of decision 0025), so
 * a checkout's share lock on it and this change take turns. NO KEY UPDATE: rows that merely
 * reference the district (a delivery inserted meanwhile) do not wait for it.
 */
function lockDistrict(tx: Transaction, districtId: number) {
  return readDistrict(tx, districtId, "no key update");
}

/**
 * Saves served, weekdays, cut-off and notes. Stopping to serve a district that still has open
 * deliveries from today on or subscriptions not cancelled is refused with the counts (decision
 * 0053): nothing is orphaned silently. Saving what is already stored changes, audits and
 * invalidates nothing (a double submit).
 */
export async function updateDistrictSettings(
  db: Database,
  actor: StaffActor,
  districtId: number,
  raw: unknown,
  options: { today: string },
): Promise<DistrictChangeResult> {
  const parsed = districtSettingsSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: "invalid", fieldErrors: fieldErrors(parsed.error) };
  const input = parsed.data;
  const dayNumbers = [...new Set(input.dayNumbers)].sort();
  return inTransaction(db, async (tx): Promise<DistrictChangeResult> => {
    const district = await lockDistrict(tx, districtId);
    if (!district) return { ok: false, reason: "not_found" };
    const after = {
      served: input.served,
      dayNumbers,
      cutoffTime: input.cutoffTime || null,
      staffNotes: input.staffNotes || null,
      doorPayment: input.doorPayment ?? district.doorPayment,
    };
    const before = {
      served: district.served,
      dayNumbers: (await readDistrictWeekdays(tx, districtId)).sort(),
      cutoffTime: district.cutoffTime,
      staffNotes: district.staffNotes,
      doorPayment: district.doorPayment,
    };
    if (JSON.stringify(before) === JSON.stringify(after)) return { ok: true, changed: false };
    if (district.served && !after.served) {
      const { openDeliveries, liveSubscriptions } = await commitmentsOf(tx, districtId, options.today);
      if (openDeliveries > 0 || liveSubscriptions > 0) {
        return { ok: false, reason: "invalid", fieldErrors: { served: stillBookedMessage(district.name, { openDeliveries, liveSubscriptions }) } };
      }
    }
    const weekdaysChanged = before.dayNumbers.join() !== dayNumbers.join();
    await changeDistrict(
      tx,
      districtId,
      { served: after.served, cutoffTime: after.cutoffTime, staffNotes: after.staffNotes, doorPayment: after.doorPayment },
      weekdaysChanged ? dayNumbers : undefined,
    );
    await recordStaffAction(tx, actor, { action: "district.update", entityType: "district", entityId: String(districtId), before, after });
    await invalidateStorefront(tx, `district ${districtId}`);
    return { ok: true, changed: true };
  });
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The Spanish refusal that tells staff what to move or end first. */
export function stillBookedMessage(name: string, commitments: DistrictCommitments): string {
  const parts = [];
  if (commitments.openDeliveries > 0) parts.push(plural(commitments.openDeliveries, "entrega pendiente", "entregas pendientes"));
  if (commitments.liveSubscriptions > 0) parts.push(plural(commitments.liveSubscriptions, "suscripción vigente", "suscripciones vigentes"));
  return `${name} todavía tiene ${parts.join(" y ")}. Reprográmalas o cancélalas antes de dejar de atender el distrito; no se cambió nada.`;
}

/**
 * The district's own places per weekday and window, all figures of the form at once: a number is
 * its own pool, null gives that weekday and window back to the shop-wide pool (decision 0037).
 * One audit entry per figure that changed; none, and no invalidation, when nothing did.
 */
export async function setDistrictCapacities(
  db: Database,
  actor: StaffActor,
  districtId: number,
  rows: { dayNumber: number; window: string; capacity: number | null }[],
): Promise<DistrictChangeResult> {
  const errors: Record<string, string> = {};
  for (const row of rows) {
    const field = `capacity-${row.dayNumber}-${row.window}`;
    if (!Number.isInteger(row.dayNumber) || row.dayNumber < 1 || row.dayNumber > 7 || !DELIVERY_WINDOWS.includes(row.window as never))
      errors[field] = "Valor no válido";
    else if (row.capacity !== null && !(Number.isInteger(row.capacity) && row.capacity >= 0 && row.capacity <= MAX_WINDOW_CAPACITY))
      errors[field] = `Escribe un número entero de 0 a ${MAX_WINDOW_CAPACITY}, o déjalo vacío`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, reason: "invalid", fieldErrors: errors };
  return inTransaction(db, async (tx): Promise<DistrictChangeResult> => {
    if (!(await lockDistrict(tx, districtId))) return { ok: false, reason: "not_found" };
    const current = await tx.select().from(deliveryCapacityOverrides).where(eq(deliveryCapacityOverrides.districtId, districtId));
    const before = new Map(current.map((row) => [`${row.dayNumber}:${row.deliveryWindow}`, row.capacity]));
    const changes = [...rows]
      .sort((a, b) => a.dayNumber - b.dayNumber || a.window.localeCompare(b.window))
      .filter((row) => (before.get(`${row.dayNumber}:${row.window}`) ?? null) !== row.capacity);
    for (const row of changes) {
      const key = and(
        eq(deliveryCapacityOverrides.districtId, districtId),
        eq(deliveryCapacityOverrides.dayNumber, row.dayNumber),
        eq(deliveryCapacityOverrides.deliveryWindow, row.window),
      );
      if (row.capacity === null) await tx.delete(deliveryCapacityOverrides).where(key);
      else
        await tx
          .insert(deliveryCapacityOverrides)
          .values({ districtId, dayNumber: row.dayNumber, deliveryWindow: row.window, capacity: row.capacity })
          .onConflictDoUpdate({
            target: [deliveryCapacityOverrides.districtId, deliveryCapacityOverrides.dayNumber, deliveryCapacityOverrides.deliveryWindow],
            set: { capacity: row.capacity },
          });
    }
    if (changes.length === 0) return { ok: true, changed: false };
    await recordStaffActions(
      tx,
      actor,
      changes.map((row) => ({
        action: "district.capacity",
        entityType: "district",
        entityId: `${districtId}:${row.dayNumber}:${row.window}`,
        before: { capacity: before.get(`${row.dayNumber}:${row.window}`) ?? null },
        after: { capacity: row.capacity },
      })),
    );
    await invalidateStorefront(tx, `district ${districtId} capacity`);
    return { ok: true, changed: true };
  });
}
