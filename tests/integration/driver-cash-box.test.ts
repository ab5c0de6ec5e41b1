import { randomUUID } from "node:crypto";
import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handoverBalance, handoverBalanceLabel } from "@core/cash-box";
import { limaToday } from "@core/lima-dates";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, driverCashHandovers, staffActions, users } from "@server/db/schema";
import { applySandboxAction, confirmDriverStop } from "@server/order-flows/index.server";
import { driverCashToHandOver, loadCashBoxDay, recordCashHandover, type CashBoxDay } from "@server/payments/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { newCustomer } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Orders placed Tuesday 24 November 2026 for Wednesday the 25th; the drivers collect on the 25th (Lima, UTC-5).
const placedAt = new Date("2026-11-24T15:00:00Z");
const now = new Date("2026-11-25T15:00:00Z");
const siteUrl = "http://shop.test";

/** Decision 0060: what each driver collected at the door on a Lima day, and the rendición operaciones records against it. */
describe("the drivers' cash box", () => {
  let test: TestDatabase;
  let ana: StaffActor;
  let luis: StaffActor;
  let customer: { id: string; email: string };
  const operaciones: StaffActor = { id: "staff-ops-cash", email: "caja-ops@demo.pe", role: "operaciones", clientAddress: "127.0.0.1" };
  const otherOperaciones: StaffActor = { id: "staff-ops-cash-2", email: "caja-ops-2@demo.pe", role: "operaciones", clientAddress: "127.0.0.1" };

  async function newDriver(firstName: string): Promise<StaffActor> {
    const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@demo.pe`;
    const id = `staff-${email}`;
    await test.db.insert(users).values({ id, name: firstName, email, emailVerified: true, firstName, lastName: "Caja", role: "repartidor" });
    return { id, email, role: "repartidor", clientAddress: "127.0.0.1" };
  }

  /** An order waiting for its cash code (S/ 59.90 a unit), on `driver`'s route, delivered at `at` with the money taken by `method`. */
  async function collect(driver: StaffActor, method: "cash" | "yape", at: Date, quantity = 1) {
    const placed = await placeOrder(
      test.db,
      checkoutInput(placedAt, { correo: customer.email, items: [{ productId: 6, variantId: null, quantity }], clientSubtotalCents: 5990 * quantity }),
      { now: placedAt, provider: "sandbox", userId: customer.id },
    );
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    await applySandboxAction(test.db, placed.paymentId, "issue_code", { now: placedAt, siteUrl });
    // On the driver's route of the Lima day they collect (decision 0071: only today's stops can be confirmed).
    const [delivery] = await test.db
      .update(deliveries)
      .set({ assignedDriverId: driver.id, status: "scheduled", deliveryDate: limaToday(at) })
      .where(eq(deliveries.orderId, placed.orderId))
      .returning({ id: deliveries.id });
    const done = await confirmDriverStop(test.db, {
      deliveryId: delivery!.id,
      driver,
      confirmation: { kind: "delivered", receiverName: "Rosa Quispe", fullBidonesLeft: 0, emptyBidonesCollected: 0, collected: method },
      now: at,
      siteUrl,
    });
    expect(done).toEqual({ ok: true, changed: true });
  }

  const boxOf = (day: CashBoxDay, driver: StaffActor) => day.drivers.find((box) => box.driverEmail === driver.email)!;
  const handoverRows = (driver: StaffActor, date: string) =>
    test.db
      .select()
      .from(driverCashHandovers)
      .where(and(eq(driverCashHandovers.driverId, driver.id), eq(driverCashHandovers.workDate, date)));
  const auditOf = () => test.db.select().from(staffActions).where(like(staffActions.action, "cash_handover.%"));
  const record = (
    actor: StaffActor,
    driver: StaffActor,
    countedCents: number,
    options: { correctsRevision?: number; note?: string | null; date?: string } = {},
  ) =>
    recordCashHandover(test.db, actor, {
      driverId: driver.id,
      date: options.date ?? "2026-11-25",
      countedCents,
      note: options.note ?? null,
      correctsRevision: options.correctsRevision ?? 0,
      now,
    });

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    customer = await newCustomer(test.db, "caja");
    ana = await newDriver("Ana");
    luis = await newDriver("Luis");
    await collect(ana, "cash", new Date("2026-11-25T15:00:00Z"));
    await collect(ana, "cash", new Date("2026-11-25T17:30:00Z"), 2);
    await collect(ana, "yape", new Date("2026-11-25T19:00:00Z"));
    // 23:30 on the 25th in Lima (04:30 UTC on the 26th) still belongs to the 25th; 00:10 Lima belongs to the 26th.
    await collect(luis, "cash", new Date("2026-11-26T04:30:00Z"));
    await collect(luis, "yape", new Date("2026-11-26T05:10:00Z"));
  }, 120_000);
  afterAll(() => test.close());

  it("totals each driver's door collections of a Lima day per method, with the cash to hand over", async () => {
    const day = await loadCashBoxDay(test.db, "2026-11-25");
    expect(day.drivers.map((box) => box.driverName)).toEqual(["Ana Caja", "Luis Caja"]);
    const anaBox = boxOf(day, ana);
    expect(anaBox).toMatchObject({ driverId: ana.id, cashCents: 17_970, yapeCents: 5_990, handovers: [] });
    expect(anaBox.collections.map((row) => [row.amountCents, row.method, row.customerName, row.collectedAt.toISOString()])).toEqual([
      [5_990, "cash", "Rosa Quispe", "2026-11-25T15:00:00.000Z"],
      [11_980, "cash", "Rosa Quispe", "2026-11-25T17:30:00.000Z"],
      [5_990, "yape", "Rosa Quispe", "2026-11-25T19:00:00.000Z"],
    ]);
    expect(anaBox.collections.every((row) => /^\S+$/.test(row.orderNumber))).toBe(true);
    expect(boxOf(day, luis)).toMatchObject({ cashCents: 5_990, yapeCents: 0 });
    expect(boxOf(day, luis).collections).toHaveLength(1);
    expect({ cash: day.cashCents, yape: day.yapeCents }).toEqual({ cash: 23_960, yape: 5_990 });

    const nextDay = await loadCashBoxDay(test.db, "2026-11-26");
    expect(nextDay.drivers.map((box) => [box.driverEmail, box.cashCents, box.yapeCents])).toEqual([[luis.email, 0, 5_990]]);
    expect((await loadCashBoxDay(test.db, "2026-11-24")).drivers).toEqual([]);
  });

  it("shows each driver their own cash only", async () => {
    expect(await driverCashToHandOver(test.db, ana, now)).toEqual({ date: "2026-11-25", cashCents: 17_970, yapeCents: 5_990, handover: null });
    expect(await driverCashToHandOver(test.db, luis, now)).toEqual({ date: "2026-11-25", cashCents: 5_990, yapeCents: 0, handover: null });
    // A driver who collected nothing sees nothing of the others' money.
    const rosa = await newDriver("Rosa");
    expect(await driverCashToHandOver(test.db, rosa, now)).toMatchObject({ cashCents: 0, yapeCents: 0, handover: null });
  });

  it("records a rendición once when the form is posted twice, and says what is missing", async () => {
    const [first, second] = await Promise.all([record(operaciones, ana, 17_000), record(operaciones, ana, 17_000)]);
    expect([first, second].filter((result) => result.ok && result.changed)).toHaveLength(1);
    expect([first, second].every((result) => result.ok)).toBe(true);
    expect(await record(operaciones, ana, 17_000)).toMatchObject({ ok: true, changed: false, handover: { revision: 1 } });
    expect(await handoverRows(ana, "2026-11-25")).toHaveLength(1);
    const audit = await auditOf();
    expect(audit.map((entry) => [entry.action, entry.actorEmail, entry.after])).toEqual([
      [
        "cash_handover.record",
        operaciones.email,
        { driverId: ana.id, driverEmail: ana.email, date: "2026-11-25", revision: 1, countedCents: 17_000, expectedCents: 17_970, note: null },
      ],
    ]);

    const anaBox = boxOf(await loadCashBoxDay(test.db, "2026-11-25"), ana);
    expect(anaBox.handovers.map((row) => [row.revision, row.countedCents, row.expectedCents, row.recordedByEmail])).toEqual([
      [1, 17_000, 17_970, operaciones.email],
    ]);
    expect(handoverBalanceLabel(handoverBalance(anaBox.handovers[0]!.countedCents, anaBox.cashCents))).toBe("Falta S/ 9.70");
  });

  it("refuses a second rendición made on a stale page instead of replacing the one in force", async () => {
    const stale = await record(otherOperaciones, ana, 18_000);
    expect(stale).toMatchObject({ ok: false, reason: "changed_meanwhile", current: { revision: 1, countedCents: 17_000, recordedByEmail: operaciones.email } });
    // Skipping a revision is no way round it either.
    expect(await record(otherOperaciones, ana, 18_000, { correctsRevision: 4, note: "Otra cuenta" })).toMatchObject({ ok: false, reason: "changed_meanwhile" });
    expect((await handoverRows(ana, "2026-11-25")).map((row) => row.countedCents)).toEqual([17_000]);
  });

  it("keeps the first count when a correction is recorded, and a correction needs its reason", async () => {
    expect(await record(operaciones, ana, 17_970, { correctsRevision: 1 })).toEqual({ ok: false, reason: "note_required" });
    const corrected = await record(otherOperaciones, ana, 17_970, { correctsRevision: 1, note: "Recontado: faltaban monedas en la bolsa" });
    expect(corrected).toMatchObject({ ok: true, changed: true, handover: { revision: 2, countedCents: 17_970 } });

    const anaBox = boxOf(await loadCashBoxDay(test.db, "2026-11-25"), ana);
    expect(anaBox.handovers.map((row) => [row.revision, row.countedCents, row.note, row.recordedByEmail])).toEqual([
      [2, 17_970, "Recontado: faltaban monedas en la bolsa", otherOperaciones.email],
      [1, 17_000, null, operaciones.email],
    ]);
    expect(handoverBalanceLabel(handoverBalance(anaBox.handovers[0]!.countedCents, anaBox.cashCents))).toBe("Cuadra");
    const correction = (await auditOf()).find((entry) => entry.action === "cash_handover.correct");
    expect(correction).toMatchObject({ actorEmail: otherOperaciones.email, before: { revision: 1, countedCents: 17_000, note: null } });
    expect(await driverCashToHandOver(test.db, ana, now)).toMatchObject({ cashCents: 17_970, handover: { revision: 2, countedCents: 17_970 } });
    // Not even a bug of ours can rewrite a count: the database refuses it.
    await expect(test.db.execute(sql`update driver_cash_handovers set counted_cents = 0`)).rejects.toThrow();
    await expect(test.db.execute(sql`delete from driver_cash_handovers`)).rejects.toThrow();
    expect((await handoverRows(ana, "2026-11-25")).map((row) => row.countedCents).sort()).toEqual([17_000, 17_970]);
  });

  it("says what is over, and the driver sees their own rendición", async () => {
    expect(await record(operaciones, luis, 6_000)).toMatchObject({ ok: true, changed: true });
    const luisView = await driverCashToHandOver(test.db, luis, now);
    expect(luisView).toMatchObject({ cashCents: 5_990, handover: { countedCents: 6_000 } });
    expect(handoverBalanceLabel(handoverBalance(luisView.handover!.countedCents, luisView.cashCents))).toBe("Sobra S/ 0.10");
  });

  it("refuses a day that has not started, and anyone who is not staff, writing nothing", async () => {
    const before = (await auditOf()).length;
    expect(await record(operaciones, luis, 5_990, { date: "2026-11-26" })).toEqual({ ok: false, reason: "future_date" });
    const customerAsDriver = { ...luis, id: customer.id, email: customer.email };
    expect(await record(operaciones, customerAsDriver, 5_990)).toEqual({ ok: false, reason: "driver_not_found" });
    expect(await record(operaciones, { ...luis, id: "no-existe" }, 5_990)).toEqual({ ok: false, reason: "driver_not_found" });
    expect(await handoverRows(customerAsDriver, "2026-11-25")).toEqual([]);
    expect(await handoverRows(luis, "2026-11-26")).toEqual([]);
    expect(await auditOf()).toHaveLength(before);
  });
});
