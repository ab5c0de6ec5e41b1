import { asc, eq, inArray, sql } from "drizzle-orm";
import { deliveries, type DeliveryStatusEntry } from "../db/schema";
import type { Transaction } from "../db/transaction";
import { deliveryPath, InvalidDeliveryTransitionError, isDeliveryStatus, type DeliveryStatus } from "./delivery-status";

export interface DeliveryChange {
  /** Who did it: a staff member's e-mail, or `system`. Kept in each history entry. */
  actor: string;
  note?: string | null;
  now: Date;
  /** Other columns written with the move (a new date, the driver…). */
  set?: Partial<typeof deliveries.$inferInsert>;
}

export interface DeliveryTransitionResult {
  /** Deliveries that moved, with the status each came from. */
  moved: { id: string; orderId: string; from: DeliveryStatus }[];
  /** Already in the target status: a repeated request, nothing written. */
  unchanged: string[];
}

/**
 * Moves deliveries to `to` inside the caller's transaction, appending one history entry per step
 * (a jump along the main path records each state passed). Rows are locked in id order (decision
 * 0025: same-table rows in key order) after whatever order rows the caller locked. Throws
 * InvalidDeliveryTransitionError, leaving the caller to roll back, when any one cannot move: a bulk
 * action applies to all or none.
 */
export async function transitionDeliveries(tx: Transaction, ids: string[], to: DeliveryStatus, change: DeliveryChange): Promise<DeliveryTransitionResult> {
  const result: DeliveryTransitionResult = { moved: [], unchanged: [] };
  if (ids.length === 0) return result;
  const rows = await tx
    .select({ id: deliveries.id, orderId: deliveries.orderId, status: deliveries.status })
    .from(deliveries)
    .where(inArray(deliveries.id, [...new Set(ids)]))
    .orderBy(asc(deliveries.id))
    .for("update");
  for (const row of rows) {
    const from = isDeliveryStatus(row.status) ? row.status : null;
    if (from === to) {
      result.unchanged.push(row.id);
      continue;
    }
    const steps = from ? deliveryPath(from, to) : null;
    if (!steps) throw new InvalidDeliveryTransitionError(row.status, to);
    const entries: DeliveryStatusEntry[] = steps.map((status) => ({
      status,
      timestamp: change.now.toISOString(),
      note: change.note ?? null,
      actor: change.actor,
    }));
    await tx
      .update(deliveries)
      .set({ ...change.set, status: to, statusHistory: sql`${deliveries.statusHistory} || ${JSON.stringify(entries)}::jsonb`, updatedAt: change.now })
      .where(eq(deliveries.id, row.id));
    result.moved.push({ id: row.id, orderId: row.orderId, from: from! });
  }
  return result;
}
