/**
 * decisions.md, Back office: the audit log of staff actions is append-only, like the consent events,
 * the complaints book and the drivers' cash handovers. The trigger of migration 0010 refuses every
 * UPDATE and DELETE, so not even a bug in our code (or a hand-written query) can rewrite it.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordStaffAction, type StaffActor } from "@server/audit/index.server";
import { staffActions } from "@server/db/schema";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/** The database's own reason for refusing (drizzle wraps it as the cause), so a typo in a query cannot pass for a refusal. */
async function refusal(query: PromiseLike<unknown>): Promise<string> {
  try {
    await query;
  } catch (error) {
    return error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
  }
  return "accepted";
}

const admin: StaffActor = { id: "staff-admin", email: "admin@example.pe", role: "admin", clientAddress: "203.0.113.9" };

describe("the audit log of staff actions", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase("empty");
  });
  afterAll(() => test.close());

  it("refuses to rewrite or delete an entry, whether by a query of ours or by hand-written SQL", async () => {
    const now = new Date();
    await recordStaffAction(test.db, admin, {
      action: "order.cancel",
      entityType: "order",
      entityId: "order-1",
      before: { status: "paid" },
      after: { status: "cancelled" },
    });
    const [entry] = await test.db.select().from(staffActions);
    expect(entry).toMatchObject({ actorEmail: "admin@example.pe", action: "order.cancel", entityId: "order-1" });

    expect(await refusal(test.db.update(staffActions).set({ action: "order.note" }).where(eq(staffActions.id, entry!.id)))).toBe(
      "staff_actions is append-only",
    );
    expect(await refusal(test.db.execute(sql`update staff_actions set after = null, created_at = ${now.toISOString()}`))).toBe("staff_actions is append-only");
    expect(await refusal(test.db.delete(staffActions).where(eq(staffActions.id, entry!.id)))).toBe("staff_actions is append-only");
    expect(await refusal(test.db.execute(sql`delete from staff_actions`))).toBe("staff_actions is append-only");
    // TRUNCATE is not a row change; the trigger does not see it, so nothing in the shop issues one.

    expect(await test.db.select().from(staffActions)).toEqual([entry]);
  });

  it("still takes new entries after refusing a rewrite", async () => {
    expect(await refusal(test.db.execute(sql`update staff_actions set actor_role = 'repartidor'`))).toBe("staff_actions is append-only");
    await recordStaffAction(test.db, admin, { action: "order.note", entityType: "order", entityId: "order-1" });
    const entries = await test.db.select({ action: staffActions.action, actorRole: staffActions.actorRole }).from(staffActions).orderBy(staffActions.id);
    expect(entries).toEqual([
      { action: "order.cancel", actorRole: "admin" },
      { action: "order.note", actorRole: "admin" },
    ]);
  });
});
