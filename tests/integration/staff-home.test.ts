import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getStaffHome } from "@server/accounts/index.server";
import { retryDeadEmailByStaff } from "@server/notifications/index.server";
import { deliveries, invoices, orderItems, orders, outboxEmails, payments, refunds, staffActions, users } from "@server/db/schema";
import { recordRowFailure } from "@server/db/row-failures";
import { DEMO_ADMIN, DEMO_OPERACIONES, DEMO_REPARTIDOR, seedDemoAccounts } from "@server/db/seed/demo-accounts";
import { DEMO_DELIVERIES } from "@server/db/seed/demo-deliveries";
import { limaToday, addDays } from "@core/lima-dates";
import { expectConsoleError } from "../support/fail-on-console-error";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

describe("the back office's home and the demo day of work (issue 10)", () => {
  let test: TestDatabase;
  const ids: Record<"admin" | "operaciones" | "repartidor", string> = { admin: "", operaciones: "", repartidor: "" };
  const guestEmails = DEMO_DELIVERIES.map((demo) => demo.customer.email);

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    for (const [role, email] of [
      ["admin", DEMO_ADMIN.email],
      ["operaciones", DEMO_OPERACIONES.email],
      ["repartidor", DEMO_REPARTIDOR.email],
    ] as const) {
      const [row] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, email));
      ids[role] = row!.id;
    }
  });
  afterAll(() => test.close());

  /** What an older demo database looks like: the demo accounts, none of the back office's demo orders. */
  async function removeDemoWork() {
    const demoOrders = await test.db.select({ id: orders.id }).from(orders).where(inArray(orders.customerEmail, guestEmails));
    const orderIds = demoOrders.map((order) => order.id);
    if (orderIds.length === 0) return;
    await test.db.delete(invoices).where(inArray(invoices.orderId, orderIds));
    await test.db.delete(orders).where(inArray(orders.id, orderIds));
  }

  it("adds the day's work to an older demo database on its next start, dated from Lima's today, once", async () => {
    await removeDemoWork();
    // 02:00 UTC on 3 June is still 2 June in Lima.
    const now = new Date("2031-06-03T02:00:00Z");
    await seedDemoAccounts(test.db, now);
    await seedDemoAccounts(test.db, now);
    const rows = await test.db
      .select({
        date: deliveries.deliveryDate,
        window: deliveries.deliveryWindow,
        district: deliveries.districtName,
        driver: deliveries.assignedDriverId,
        position: deliveries.routePosition,
        status: deliveries.status,
        orderStatus: orders.status,
        paidAt: orders.paidAt,
        orderId: orders.id,
      })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .where(inArray(orders.customerEmail, guestEmails));
    expect(rows).toHaveLength(DEMO_DELIVERIES.length);
    const today = rows.filter((row) => row.date === "2031-06-02");
    expect(today.length).toBeGreaterThanOrEqual(4);
    expect(new Set(rows.map((row) => row.district)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(today.map((row) => row.window))).toEqual(new Set(["manana", "tarde"]));
    expect(rows.some((row) => row.date === "2031-06-03") && rows.some((row) => row.date > "2031-06-03")).toBe(true);
    const route = today.filter((row) => row.driver === ids.repartidor).sort((a, b) => a.position! - b.position!);
    // Issue 26: stop 4 is the demo customer's delivery of the day, which this older database does not have.
    expect(route.map((row) => row.position)).toEqual([1, 2, 3, 5, 6]);
    expect(route.every((row) => row.status === "scheduled")).toBe(true);
    const unpaid = rows.filter((row) => row.paidAt === null);
    expect(unpaid.length).toBe(2);
    expect(unpaid.every((row) => row.orderStatus === "payment_created")).toBe(true);
    // Every paid demo order has its invoice, like any paid order.
    const paid = rows.filter((row) => row.paidAt !== null).map((row) => row.orderId);
    expect(await test.db.select({ id: invoices.id }).from(invoices).where(inArray(invoices.orderId, paid))).toHaveLength(paid.length);
    expect(await test.db.select({ id: orderItems.id }).from(orderItems).where(inArray(orderItems.orderId, paid))).not.toHaveLength(0);
  });

  it("counts today's deliveries by status and the paid orders waiting for dispatch for operaciones, without the admin's alarms", async () => {
    const home = await getStaffHome(test.db, { id: ids.operaciones, role: "operaciones" }, "2031-06-02");
    const byStatus = Object.fromEntries(home.operations!.deliveriesToday.map((row) => [row.status, row.count]));
    expect(byStatus).toEqual({ scheduled: 5 });
    const awaitingCount = (
      await test.db
        .select({ id: orders.id })
        .from(orders)
        .where(inArray(orders.status, ["paid", "processing"]))
    ).length;
    expect(awaitingCount).toBeGreaterThan(0);
    expect(home.operations!.ordersAwaitingDispatch).toBe(awaitingCount);
    expect(home.alarms).toBeNull();
    expect(home.driver).toBeNull();
  });

  it("tells the repartidor how many stops are theirs today, and nothing else", async () => {
    const home = await getStaffHome(test.db, { id: ids.repartidor, role: "repartidor" }, "2031-06-02");
    expect(home).toEqual({ operations: null, alarms: null, driver: { stopsToday: 5 }, comprobantesDue: null });
    expect((await getStaffHome(test.db, { id: ids.repartidor, role: "repartidor" }, addDays("2031-06-02", 1))).driver).toEqual({ stopsToday: 0 });
  });

  it("shows the admin dead e-mails, job row failures and open refunds, and retries a dead e-mail once, audited", async () => {
    const now = new Date();
    const [dead] = await test.db
      .insert(outboxEmails)
      .values({
        dedupeKey: "home-dead-1",
        kind: "order_confirmation",
        toAddress: "nadie@prueba.pe",
        subject: "Tu pedido",
        html: "<p>x</p>",
        text: "x",
        status: "dead",
        attempts: 8,
        lastError: "550 mailbox unavailable",
        deadAt: now,
      })
      .returning({ id: outboxEmails.id });
    expectConsoleError(/Job renewals could not handle sub-123/);
    await recordRowFailure(test.db, "renewals", "sub-123", new Error("tarjeta vencida"), now);
    await recordRowFailure(test.db, "renewals", "sub-123", new Error("tarjeta vencida"), now);
    const [payment] = await test.db.select({ id: payments.id, orderId: payments.orderId }).from(payments).where(isNotNull(payments.settledAt)).limit(1);
    await test.db.insert(refunds).values({
      paymentId: payment!.id,
      orderId: payment!.orderId,
      provider: "culqi",
      chargeReference: "chr_home_1",
      requestKey: "home-test-refund-1",
      amountCents: 1500,
      reason: "duplicate_charge",
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
      lastError: "timeout",
    });

    const { alarms } = await getStaffHome(test.db, { id: ids.admin, role: "admin" }, limaToday(now));
    expect(alarms!.deadEmails.map((email) => [email.id, email.lastError])).toContainEqual([dead!.id, "550 mailbox unavailable"]);
    expect(alarms!.rowFailures).toContainEqual(expect.objectContaining({ job: "renewals", rowId: "sub-123", failures: 2, message: "Error: tarjeta vencida" }));
    expect(alarms!.openRefunds).toContainEqual(expect.objectContaining({ amountCents: 1500, status: "pending", lastError: "timeout" }));

    const actor = { id: ids.admin, email: DEMO_ADMIN.email, role: "admin" as const, clientAddress: "198.51.100.4" };
    expect(await retryDeadEmailByStaff(test.db, actor, dead!.id, now)).toEqual({ ok: true });
    expect(await retryDeadEmailByStaff(test.db, actor, dead!.id, now)).toEqual({ ok: false, reason: "not_dead" });
    const [email] = await test.db.select({ status: outboxEmails.status }).from(outboxEmails).where(eq(outboxEmails.id, dead!.id));
    expect(email!.status).toBe("pending");
    const audit = await test.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.entityType, "email"), eq(staffActions.entityId, dead!.id)));
    expect(audit.map((row) => [row.action, row.actorEmail, row.clientAddress])).toEqual([["email.retry", DEMO_ADMIN.email, "198.51.100.4"]]);
    expect((await getStaffHome(test.db, { id: ids.admin, role: "admin" }, limaToday(now))).alarms!.deadEmails.map((row) => row.id)).not.toContain(dead!.id);
  });
});
