import { createHash } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { deliveryScheduleError, deliveryWindowLabel } from "@core/delivery-schedule";
import { addDays, isIsoDate, isoWeekday, limaToday } from "@core/lima-dates";
import { recordStaffActions, type StaffActionEntry, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { readBrandName, readWeekdaysOfDistricts } from "../content/index.server";
import { deliveries, orders } from "../db/schema";
import { inTransaction, type Transaction } from "../db/transaction";
import { dayRescheduledEmail, enqueueEmail } from "../notifications/index.server";
import { receiptUrl } from "../orders/index.server";
import { claimSlot } from "./capacity";
import { DispatchRefusedError } from "./dispatch-actions";
import { dispatchableOrder } from "./dispatch-scope";
import { MAX_POSTPONE_DAYS } from "./offered-slots";
import { deliveryToMoveColumns, moveDeliveries } from "./move-deliveries";

/** Not yet on the road: what a closed day can still move (shipped ones are already out). */
const MOVABLE = ["pending", "preparing", "scheduled", "rescheduled"];

export interface RescheduleDayResult {
  moved: { deliveryNumber: string; districtName: string; deliveryWindow: string; to: string }[];
  /** Customers told, one e-mail each. */
  customers: number;
}

/**
 * Issue 11: an unexpected closure. Every delivery of `date` that Despacho works on and has not
 * left moves, each to the first date from the day after (and from tomorrow) that its district is
 * served on, within the booking horizon, not closed and with room in its window (the checkout's
 * rules and Despacho's "Reprogramar" primitives: deliveryScheduleError, claimSlot,
 * transitionDeliveries). All in one transaction with one audit row per delivery; each customer
 * gets one e-mail listing their deliveries. Run again, the day is empty and nothing changes.
 */
export async function rescheduleDay(
  db: Database,
  actor: StaffActor,
  input: { date: string; reason?: string | null; now: Date; siteUrl: string },
): Promise<RescheduleDayResult> {
  if (!isIsoDate(input.date)) throw new DispatchRefusedError("Elige el día que no habrá entregas.");
  if (input.date < limaToday(input.now)) throw new DispatchRefusedError("Ese día ya pasó.");
  const reason = input.reason?.trim() || null;
  return inTransaction(db, async (tx) => {
    const rows = await tx
      .select(deliveryToMoveColumns)
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .where(and(eq(deliveries.deliveryDate, input.date), inArray(deliveries.status, MOVABLE), dispatchableOrder))
      .orderBy(asc(deliveries.id))
      .for("update", { of: deliveries });
    if (rows.length === 0) return { moved: [], customers: 0 };

    const served = await readWeekdaysOfDistricts(tx, [...new Set(rows.map((row) => row.districtId))]);
    const start = [addDays(input.date, 1), addDays(limaToday(input.now), 1)].sort()[1]!;
    const note = (to: string, window: string) => `Reprogramado del ${input.date} al ${to} (${deliveryWindowLabel(window)})${reason ? `: ${reason}` : ""}`;
    const moved: ((typeof rows)[number] & { to: string })[] = [];
    const audit: StaffActionEntry[] = [];
    for (const row of rows) {
      const districtDays = served.get(row.districtId) ?? [];
      const to = await claimNextAllowedDate(tx, row, districtDays, start, input.now);
      if (!to) {
        throw new DispatchRefusedError(
          `No hay una fecha con cupos para el envío ${row.deliveryNumber} (${row.districtName}) en los próximos ${MAX_POSTPONE_DAYS} días. No se cambió ningún envío.`,
        );
      }
      const change = { actor: actor.email, now: input.now, note: note(to, row.deliveryWindow) };
      audit.push(...(await moveDeliveries(tx, [row], { date: to, deliveryWindow: row.deliveryWindow }, change, { action: "delivery.reschedule_day", reason })));
      moved.push({ ...row, to });
    }
    await recordStaffActions(tx, actor, audit);
    const customers = await tellEachCustomerOnce(tx, moved, { ...input, reason });
    return {
      moved: moved.map((row) => ({ deliveryNumber: row.deliveryNumber, districtName: row.districtName, deliveryWindow: row.deliveryWindow, to: row.to })),
      customers,
    };
  });
}

/** The first date from `start` the district is served on, open, within the booking horizon and with room in the delivery's window; its place claimed. */
async function claimNextAllowedDate(
  tx: Transaction,
  row: { districtId: number; deliveryWindow: string },
  districtDays: number[],
  start: string,
  now: Date,
): Promise<string | null> {
  for (let step = 0; step <= MAX_POSTPONE_DAYS; step += 1) {
    const date = addDays(start, step);
    if (deliveryScheduleError({ districtDays, dayNumber: isoWeekday(date), date, now })) continue;
    if ((await claimSlot(tx, { districtId: row.districtId, date, window: row.deliveryWindow })).ok) return date;
  }
  return null;
}

/** One e-mail per customer (by the orders' e-mail), keyed by the day and the deliveries moved, so a retried transaction sends it once. */
async function tellEachCustomerOnce(
  tx: Transaction,
  moved: { id: string; orderId: string; deliveryNumber: string; deliveryWindow: string; to: string }[],
  input: { date: string; reason: string | null; now: Date; siteUrl: string },
): Promise<number> {
  const orderRows = await tx
    .select({ id: orders.id, orderNumber: orders.orderNumber, firstName: orders.customerFirstName, email: orders.customerEmail })
    .from(orders)
    .where(inArray(orders.id, [...new Set(moved.map((row) => row.orderId))]));
  const brandName = await readBrandName(tx);
  const byCustomer = new Map<string, { firstName: string; rows: typeof moved }>();
  for (const row of moved) {
    const order = orderRows.find((each) => each.id === row.orderId)!;
    const key = order.email.toLowerCase();
    const entry = byCustomer.get(key) ?? { firstName: order.firstName, rows: [] };
    entry.rows.push(row);
    byCustomer.set(key, entry);
  }
  for (const [email, entry] of byCustomer) {
    const content = dayRescheduledEmail({
      brandName,
      firstName: entry.firstName,
      fromDate: input.date,
      reason: input.reason,
      deliveries: entry.rows.map((row) => {
        const order = orderRows.find((each) => each.id === row.orderId)!;
        return {
          orderNumber: order.orderNumber,
          deliveryNumber: row.deliveryNumber,
          date: row.to,
          deliveryWindow: row.deliveryWindow,
          receiptUrl: receiptUrl(order.id, input.siteUrl),
        };
      }),
    });
    const digest = createHash("sha256")
      .update(
        entry.rows
          .map((row) => row.id)
          .sort()
          .join(","),
      )
      .digest("hex")
      .slice(0, 32);
    await enqueueEmail(tx, { dedupeKey: `day-rescheduled:${input.date}:${digest}`, kind: "day-rescheduled", to: email, ...content }, input.now);
  }
  return byCustomer.size;
}
