import { and, asc, eq, sql } from "drizzle-orm";
import { historyEntrySchema } from "@core/content-schemas";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import type { Database } from "../db/client";
import { historyEntries } from "../db/schema";
import { invalidateStorefront } from "../db/storefront-cache";
import { inTransaction } from "../db/transaction";
import { changesNothing, oneCreateAtATime, parseContent, type ContentSaveResult } from "./content-edit";

export type HistoryEntryRow = typeof historyEntries.$inferSelect;

/** In the carousel's order (spec §7: `orden` ascending, nulls last, then creation). */
export function listAllHistoryEntries(db: Database): Promise<HistoryEntryRow[]> {
  return db
    .select()
    .from(historyEntries)
    .orderBy(sql`${historyEntries.sortOrder} asc nulls last`, asc(historyEntries.createdAt), asc(historyEntries.id));
}

export async function findHistoryEntryForEditing(db: Database, id: number): Promise<HistoryEntryRow | null> {
  const [row] = await db.select().from(historyEntries).where(eq(historyEntries.id, id));
  return row ?? null;
}

const audited = (row: Pick<HistoryEntryRow, "title" | "description" | "image" | "sortOrder">) => ({
  title: row.title,
  description: row.description,
  image: row.image,
  sortOrder: row.sortOrder,
});

export async function createHistoryEntry(db: Database, actor: StaffActor, raw: Record<string, unknown>): Promise<ContentSaveResult> {
  const parsed = parseContent(historyEntrySchema, raw);
  if (!parsed.ok) return parsed;
  return inTransaction(db, async (tx) => {
    await oneCreateAtATime(tx, "history");
    // The same form posted again (double click, retry) gives the row the first post created.
    const [same] = await tx
      .select({ id: historyEntries.id })
      .from(historyEntries)
      .where(and(eq(historyEntries.title, parsed.data.title), eq(historyEntries.description, parsed.data.description)));
    if (same) return { ok: true, id: same.id } as const;
    const [row] = await tx.insert(historyEntries).values(parsed.data).returning();
    await recordStaffAction(tx, actor, { action: "history.create", entityType: "history_entry", entityId: String(row!.id), after: audited(row!) });
    await invalidateStorefront(tx, "history.create");
    return { ok: true, id: row!.id } as const;
  });
}

export async function updateHistoryEntry(db: Database, actor: StaffActor, id: number, raw: Record<string, unknown>): Promise<ContentSaveResult> {
  const parsed = parseContent(historyEntrySchema, raw);
  if (!parsed.ok) return parsed;
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select().from(historyEntries).where(eq(historyEntries.id, id)).for("update");
    if (!before) return { ok: false, reason: "not_found" } as const;
    if (changesNothing(before, parsed.data)) return { ok: true, id } as const;
    await tx.update(historyEntries).set(parsed.data).where(eq(historyEntries.id, id));
    await recordStaffAction(tx, actor, {
      action: "history.update",
      entityType: "history_entry",
      entityId: String(id),
      before: audited(before),
      after: parsed.data,
    });
    await invalidateStorefront(tx, "history.update");
    return { ok: true, id } as const;
  });
}

/** Nothing references a history slide, so it may go; the audit keeps what it said. A second delete finds nothing. */
export async function deleteHistoryEntry(db: Database, actor: StaffActor, id: number): Promise<ContentSaveResult> {
  return inTransaction(db, async (tx) => {
    const [before] = await tx.delete(historyEntries).where(eq(historyEntries.id, id)).returning();
    if (!before) return { ok: false, reason: "not_found" } as const;
    await recordStaffAction(tx, actor, { action: "history.delete", entityType: "history_entry", entityId: String(id), before: audited(before) });
    await invalidateStorefront(tx, "history.delete");
    return { ok: true, id } as const;
  });
}
