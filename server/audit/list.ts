import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { staffActions } from "../db/schema";
import { addDays } from "@core/lima-dates";

export interface StaffActionFilters {
  actor?: string;
  entityType?: string;
  entityId?: string;
  /** Lima calendar dates, inclusive. */
  from?: string;
  to?: string;
  page?: number;
}

export const STAFF_ACTIONS_PAGE_SIZE = 50;

export type StaffActionRow = typeof staffActions.$inferSelect;

/** Newest first; `actor` matches the e-mail (or part of it) of whoever acted. */
export async function listStaffActions(db: Database, filters: StaffActionFilters): Promise<{ rows: StaffActionRow[]; hasMore: boolean }> {
  const conditions: SQL[] = [];
  if (filters.actor) conditions.push(sql`${staffActions.actorEmail} ilike ${`%${escapeLike(filters.actor)}%`}`);
  if (filters.entityType) conditions.push(eq(staffActions.entityType, filters.entityType));
  if (filters.entityId) conditions.push(eq(staffActions.entityId, filters.entityId));
  if (filters.from) conditions.push(gte(staffActions.createdAt, limaMidnight(filters.from)));
  if (filters.to) conditions.push(lt(staffActions.createdAt, limaMidnight(addDays(filters.to, 1))));
  const page = Math.max(1, filters.page ?? 1);
  const rows = await db
    .select()
    .from(staffActions)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(staffActions.createdAt), desc(staffActions.id))
    .limit(STAFF_ACTIONS_PAGE_SIZE + 1)
    .offset((page - 1) * STAFF_ACTIONS_PAGE_SIZE);
  return { rows: rows.slice(0, STAFF_ACTIONS_PAGE_SIZE), hasMore: rows.length > STAFF_ACTIONS_PAGE_SIZE };
}

/** Lima has no daylight saving: its midnight is always 05:00 UTC. */
function limaMidnight(date: string): Date {
  return new Date(`${date}T05:00:00.000Z`);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
