import { and, eq } from "drizzle-orm";
import type { DatabaseOrTransaction } from "../db/transaction";
import { staffActions } from "../db/schema";
import type { StaffRole } from "@core/staff-roles";

/** Who did it, as the staff guard knows them, and from where (the client address of the request). */
export interface StaffActor {
  id: string;
  email: string;
  role: StaffRole;
  clientAddress: string | null;
}

export interface StaffActionEntry {
  action: string;
  entityType: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Appends one audit row. Call it inside the transaction that makes the change, so the record and
 * the change land together or not at all (a bulk action writes one row per record it touched).
 */
export async function recordStaffAction(tx: DatabaseOrTransaction, actor: StaffActor, entry: StaffActionEntry): Promise<void> {
  await recordStaffActions(tx, actor, [entry]);
}

export async function recordStaffActions(tx: DatabaseOrTransaction, actor: StaffActor, entries: StaffActionEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(staffActions).values(
    entries.map((entry) => ({
      actorId: actor.id,
      actorEmail: actor.email,
      actorRole: actor.role,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      before: entry.before ?? null,
      after: entry.after ?? null,
      clientAddress: actor.clientAddress,
    })),
  );
}

/**
 * Whether this action was already recorded for the record: a flow that writes its audit row after
 * a change committed elsewhere (staff's "Nuevo pedido", decision 0091) checks it under the record's
 * lock, so a repeated submit or a retry after a crash writes it exactly once.
 */
export async function hasStaffAction(tx: DatabaseOrTransaction, entry: { action: string; entityType: string; entityId: string }): Promise<boolean> {
  const [row] = await tx
    .select({ id: staffActions.id })
    .from(staffActions)
    .where(and(eq(staffActions.entityType, entry.entityType), eq(staffActions.entityId, entry.entityId), eq(staffActions.action, entry.action)))
    .limit(1);
  return Boolean(row);
}
