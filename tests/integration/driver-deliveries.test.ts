import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import {
  bidonMovements,
  deliveries,
  deliveryProofs,
  invoices,
  orders,
  orderStatusChanges,
  outboxEmails,
  payments,
  staffActions,
  users,
} from "@server/db/schema";
import { bidonBalance, bidonBalances, listDriverStops, recentBidonMovements, type DriverConfirmation } from "@server/deliveries/index.server";
import { applySandboxAction, confirmDriverStop, settleConfirmedCharge } from "@server/order-flows/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { driverCashToHandOver } from "@server/payments/index.server";
import { checkoutInput, uniqueContact } from "../support/checkout-fixture";
import { newCustomer } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Orders are placed on Tuesday 24 November 2026 for Wednesday the 25th (Miraflores); the driver works on the 25th at 10:00 Lima.
const placedAt = new Date("2026-11-24T15:00:00Z");
const now = new Date("2026-11-25T15:00:00Z");
const today = "2026-11-25";
const siteUrl = "http://shop.test";

/** Issue 10: the driver's buttons move the delivery, the order follows, the customer is told once, the bidones are counted once. */
describe("the driver's confirmations", () => {
  let test: TestDatabase;
  let driver: StaffActor;
  let otherDriver: StaffActor;
  let customer: { id: string; email: string };

  async function newDriver(name: string): Promise<StaffActor> {
    const email = `${name}-${randomUUID().slice(0, 8)}@demo.pe`;
    const id = `staff-${email}`;
    await test.db.insert(users).values({ id, name, email, emailVerified: true, firstName: name, lastName: "Reparto", role: "repartidor" });
    return { id, email, role: "repartidor", clientAddress: "127.0.0.1" };
  }

  /** A paid order (or, with `pay: "code"`, one waiting for its cash code) whose delivery is on `assignee`'s route today. */
  async function stopFor(assignee: StaffActor, options: { guestEmail?: string; pay?: "card" | "code" } = {}) {
    const placed = await placeOrder(test.db, checkoutInput(placedAt, { correo: options.guestEmail ?? customer.email, ...uniqueContact() }), {
      now: placedAt,
      provider: "sandbox",
      userId: options.guestEmail ? null : customer.id,
    });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    await applySandboxAction(test.db, placed.paymentId, options.pay === "code" ? "issue_code" : "approve_card", { now: placedAt, siteUrl });
    const [delivery] = await test.db
      .update(deliveries)
      .set({ assignedDriverId: assignee.id, status: "scheduled" })
      .where(eq(deliveries.orderId, placed.orderId))
      .returning();
    return { orderId: placed.orderId, deliveryId: delivery!.id };
  }

  const confirm = (deliveryId: string, confirmation: DriverConfirmation, who = driver) =>
    confirmDriverStop(test.db, { deliveryId, driver: who, confirmation, now, siteUrl });
  const delivered = (fullBidonesLeft: number, emptyBidonesCollected: number): Extract<DriverConfirmation, { kind: "delivered" }> => ({
    kind: "delivered",
    receiverName: "Rosa Quispe",
    fullBidonesLeft,
    emptyBidonesCollected,
  });
  const orderStatus = async (orderId: string) => (await test.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.status;
  const delivery = async (deliveryId: string) => (await test.db.select().from(deliveries).where(eq(deliveries.id, deliveryId)))[0]!;
  const emailsOf = (deliveryId: string) =>
    test.db
      .select()
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `delivery-%${deliveryId}%`));
  const orderSteps = async (orderId: string) =>
    (await test.db.select().from(orderStatusChanges).where(eq(orderStatusChanges.orderId, orderId)).orderBy(asc(orderStatusChanges.id))).map(
      (change) => change.toStatus,
    );

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    driver = await newDriver("Jorge");
    otherDriver = await newDriver("Luis");
    customer = await newCustomer(test.db, "bidones");
  });
  afterAll(() => test.close());

  it("marks a stop en camino: the delivery passes shipped, the order walks paid → processing → shipped, the customer gets one e-mail", async () => {
    const stop = await stopFor(driver);
    expect(await confirm(stop.deliveryId, { kind: "on_the_way" })).toEqual({ ok: true, changed: true });
    const row = await delivery(stop.deliveryId);
    expect(row.status).toBe("in_transit");
    expect(row.statusHistory.slice(-2).map((entry) => [entry.status, entry.actor])).toEqual([
      ["shipped", driver.email],
      ["in_transit", driver.email],
    ]);
    expect(await orderStatus(stop.orderId)).toBe("shipped");
    expect((await orderSteps(stop.orderId)).slice(-3)).toEqual(["paid", "processing", "shipped"]);
    const emails = await emailsOf(stop.deliveryId);
    expect(emails.map((email) => email.subject)).toEqual(["Tu pedido está en camino"]);
    expect(emails[0]!.toAddress).toBe(customer.email);
    const audit = await test.db.select().from(staffActions).where(eq(staffActions.entityId, stop.deliveryId));
    expect(audit.map((entry) => [entry.action, entry.actorEmail])).toEqual([["delivery.in_transit", driver.email]]);
  });

  it("counts a double tap once: one move, one e-mail, one audit entry, one pair of ledger movements", async () => {
    const stop = await stopFor(driver);
    const [first, second] = await Promise.all([confirm(stop.deliveryId, { kind: "on_the_way" }), confirm(stop.deliveryId, { kind: "on_the_way" })]);
    expect([first, second].filter((result) => result.ok && result.changed)).toHaveLength(1);
    expect(await confirm(stop.deliveryId, { kind: "on_the_way" })).toEqual({ ok: true, changed: false });

    const taps = await Promise.all([
      confirm(stop.deliveryId, delivered(1, 1)),
      confirm(stop.deliveryId, delivered(1, 1)),
      confirm(stop.deliveryId, delivered(3, 0)),
    ]);
    expect(taps.filter((result) => result.ok && result.changed)).toHaveLength(1);
    expect(taps.every((result) => result.ok)).toBe(true);

    expect((await emailsOf(stop.deliveryId)).map((email) => email.subject).sort()).toEqual(["Tu pedido está en camino", "Tu pedido fue entregado"]);
    const proofs = await test.db.select().from(deliveryProofs).where(eq(deliveryProofs.deliveryId, stop.deliveryId));
    expect(proofs).toHaveLength(1);
    // Whichever tap won, the ledger holds exactly what its proof says, once.
    const movements = await test.db.select().from(bidonMovements).where(eq(bidonMovements.deliveryId, stop.deliveryId));
    const expected = [
      ["lent", proofs[0]!.fullBidonesLeft],
      ["returned", proofs[0]!.emptyBidonesCollected],
    ].filter(([, quantity]) => Number(quantity) > 0);
    expect(movements.map((movement) => [movement.kind, movement.quantity]).sort()).toEqual(expected);
    const audit = await test.db.select({ action: staffActions.action }).from(staffActions).where(eq(staffActions.entityId, stop.deliveryId));
    expect(audit.map((entry) => entry.action).sort()).toEqual(["delivery.delivered", "delivery.in_transit"]);
    const history = (await delivery(stop.deliveryId)).statusHistory.map((entry) => entry.status);
    expect(history.filter((status) => status === "delivered")).toHaveLength(1);
    expect(history.filter((status) => status === "in_transit")).toHaveLength(1);
  });

  it("delivers the order when its only delivery is delivered, with the receiver and the bidones kept as proof", async () => {
    const stop = await stopFor(driver);
    await confirm(stop.deliveryId, { kind: "on_the_way" });
    expect(await confirm(stop.deliveryId, delivered(1, 1))).toEqual({ ok: true, changed: true });
    expect((await delivery(stop.deliveryId)).status).toBe("delivered");
    expect(await orderStatus(stop.orderId)).toBe("delivered");
    const [proof] = await test.db.select().from(deliveryProofs).where(eq(deliveryProofs.deliveryId, stop.deliveryId));
    expect(proof).toMatchObject({ outcome: "delivered", receiverName: "Rosa Quispe", fullBidonesLeft: 1, emptyBidonesCollected: 1, driverId: driver.id });
    const [email] = (await emailsOf(stop.deliveryId)).filter((row) => row.kind === "delivery-delivered");
    expect(email!.subject).toBe("Tu pedido fue entregado");
    expect(email!.text).toContain("Lo recibió Rosa Quispe");
    expect(email!.text).toContain("Dejamos 1 bidón lleno y recogimos 1 vacío");
  });

  it("keeps the order shipped until every one of its deliveries is delivered", async () => {
    const stop = await stopFor(driver);
    const [first] = await test.db.select().from(deliveries).where(eq(deliveries.id, stop.deliveryId));
    const { id: _id, deliveryNumber: _number, ...copy } = first!;
    const [second] = await test.db.insert(deliveries).values(copy).returning();
    await confirm(stop.deliveryId, { kind: "on_the_way" });
    await confirm(stop.deliveryId, delivered(0, 0));
    expect(await orderStatus(stop.orderId)).toBe("shipped");
    await confirm(second!.id, delivered(0, 0));
    expect(await orderStatus(stop.orderId)).toBe("delivered");
    // Nothing lent or returned: no ledger rows, though both deliveries were confirmed.
    expect(await test.db.select().from(bidonMovements).where(eq(bidonMovements.orderId, stop.orderId))).toHaveLength(0);
  });

  it("refuses another driver's stop and an unknown one, changing nothing", async () => {
    const stop = await stopFor(otherDriver);
    expect(await confirm(stop.deliveryId, { kind: "on_the_way" })).toEqual({ ok: false, reason: "not_found" });
    expect(await confirm(stop.deliveryId, delivered(1, 0))).toEqual({ ok: false, reason: "not_found" });
    expect(await confirm(randomUUID(), { kind: "on_the_way" })).toEqual({ ok: false, reason: "not_found" });
    expect((await delivery(stop.deliveryId)).status).toBe("scheduled");
    expect(await orderStatus(stop.orderId)).toBe("paid");
    expect(await emailsOf(stop.deliveryId)).toHaveLength(0);
    expect(await test.db.select().from(staffActions).where(eq(staffActions.entityId, stop.deliveryId))).toHaveLength(0);
    // The stop is on its own driver's list only.
    expect((await listDriverStops(test.db, driver.id, now)).map((row) => row.id)).not.toContain(stop.deliveryId);
    expect((await listDriverStops(test.db, otherDriver.id, now)).map((row) => row.id)).toContain(stop.deliveryId);
  });

  /** Everything a settled door collection writes, for an order whose code was never collected: all of it must stay empty. */
  async function expectCodeStillOpen(orderId: string, deliveryId: string) {
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment).toMatchObject({ status: "pending", collectedAtDoorBy: null, settledAt: null });
    expect(await orderStatus(orderId)).toBe("payment_created");
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, orderId))).toHaveLength(0);
    expect(
      await test.db
        .select()
        .from(outboxEmails)
        .where(like(outboxEmails.dedupeKey, `order-confirmation:${orderId}%`)),
    ).toHaveLength(0);
    expect(await emailsOf(deliveryId)).toHaveLength(0);
    expect(await test.db.select().from(staffActions).where(eq(staffActions.entityId, deliveryId))).toHaveLength(0);
    expect(await test.db.select().from(deliveryProofs).where(eq(deliveryProofs.deliveryId, deliveryId))).toHaveLength(0);
  }

  // Issue 24, defect 1 (decision 0071): the door collection was settled before the assignment was checked, and the refusal committed it.
  it("settles no payment for a stop off the driver's route: another driver's, nobody's, another day's, or an admin's empty route", async () => {
    const cashBefore = await driverCashToHandOver(test.db, driver, now);
    const admin: StaffActor = { id: "staff-admin-without-route", email: "admin-sin-ruta@demo.pe", role: "admin", clientAddress: "127.0.0.1" };
    const collectedCash: DriverConfirmation = { ...delivered(1, 0), collected: "cash" };

    const foreign = await stopFor(otherDriver, { pay: "code" });
    const unassigned = await stopFor(otherDriver, { pay: "code" });
    await test.db.update(deliveries).set({ assignedDriverId: null }).where(eq(deliveries.id, unassigned.deliveryId));
    const tomorrow = await stopFor(driver, { pay: "code" });
    await test.db.update(deliveries).set({ deliveryDate: "2026-11-27" }).where(eq(deliveries.id, tomorrow.deliveryId));

    for (const stop of [foreign, unassigned, tomorrow]) {
      expect(await confirm(stop.deliveryId, collectedCash)).toEqual({ ok: false, reason: "not_found" });
      expect(await confirm(stop.deliveryId, { ...collectedCash, collected: "yape" }, admin)).toEqual({ ok: false, reason: "not_found" });
      await expectCodeStillOpen(stop.orderId, stop.deliveryId);
    }
    expect(await driverCashToHandOver(test.db, driver, now)).toEqual(cashBefore);
  });

  it("refuses a staff member who is not a driver even on a stop assigned to their id", async () => {
    const operaciones: StaffActor = { ...driver, role: "operaciones" };
    const stop = await stopFor(driver, { pay: "code" });
    expect(await confirm(stop.deliveryId, { ...delivered(1, 0), collected: "cash" }, operaciones)).toEqual({ ok: false, reason: "not_found" });
    expect(await confirm(stop.deliveryId, { kind: "on_the_way" }, operaciones)).toEqual({ ok: false, reason: "not_found" });
    await expectCodeStillOpen(stop.orderId, stop.deliveryId);
    expect((await delivery(stop.deliveryId)).status).toBe("scheduled");
  });

  it("answers a foreign stop exactly as a missing one, whatever its order's payment (no 'ya está pagado', no amount to collect)", async () => {
    const paid = await stopFor(otherDriver);
    const unpaid = await stopFor(otherDriver, { pay: "code" });
    const missing = await confirm(randomUUID(), delivered(1, 0));
    expect(await confirm(paid.deliveryId, { ...delivered(1, 0), collected: "cash" })).toEqual(missing);
    expect(await confirm(unpaid.deliveryId, delivered(1, 0))).toEqual(missing);
    expect(await confirm(paid.deliveryId, { kind: "failed", reason: "ausente", note: null })).toEqual(missing);
  });

  it("rolls back the money collected when the driver's own stop cannot be delivered (a failed stop)", async () => {
    const stop = await stopFor(driver, { pay: "code" });
    await confirm(stop.deliveryId, { kind: "on_the_way" });
    expect(await confirm(stop.deliveryId, { kind: "failed", reason: "ausente", note: null })).toEqual({ ok: true, changed: true });
    expect(await confirm(stop.deliveryId, { ...delivered(1, 0), collected: "cash" })).toEqual({ ok: false, reason: "not_allowed", status: "failed" });
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, stop.orderId));
    expect(payment).toMatchObject({ status: "pending", collectedAtDoorBy: null });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, stop.orderId))).toHaveLength(0);
  });

  it("records a failed delivery with its reason and note, tells the customer, and refuses to deliver it afterwards", async () => {
    const stop = await stopFor(driver);
    await confirm(stop.deliveryId, { kind: "on_the_way" });
    const failed: DriverConfirmation = { kind: "failed", reason: "ausente", note: "Nadie abrió, tocamos dos veces" };
    expect(await confirm(stop.deliveryId, failed)).toEqual({ ok: true, changed: true });
    expect(await confirm(stop.deliveryId, failed)).toEqual({ ok: true, changed: false });
    const row = await delivery(stop.deliveryId);
    expect(row.status).toBe("failed");
    expect(row.statusHistory.at(-1)!.note).toBe("Cliente ausente: Nadie abrió, tocamos dos veces");
    const proofs = await test.db.select().from(deliveryProofs).where(eq(deliveryProofs.deliveryId, stop.deliveryId));
    expect(proofs.map((proof) => [proof.outcome, proof.failureReason, proof.note])).toEqual([["failed", "ausente", "Nadie abrió, tocamos dos veces"]]);
    const subjects = (await emailsOf(stop.deliveryId)).map((email) => email.subject).sort();
    expect(subjects).toEqual(["No pudimos entregar tu pedido", "Tu pedido está en camino"]);
    expect(await orderStatus(stop.orderId)).toBe("shipped");
    expect(await confirm(stop.deliveryId, delivered(1, 0))).toEqual({ ok: false, reason: "not_allowed", status: "failed" });
    expect(await test.db.select().from(bidonMovements).where(eq(bidonMovements.deliveryId, stop.deliveryId))).toHaveLength(0);
  });

  it("keeps the bidones balance per customer: lent − returned, by account, and by e-mail for guests", async () => {
    const fresh = await newCustomer(test.db, "saldo");
    const previous = customer;
    customer = fresh;
    try {
      const one = await stopFor(driver);
      const two = await stopFor(driver);
      await confirm(one.deliveryId, delivered(3, 0));
      await confirm(two.deliveryId, delivered(1, 2));
      expect(await bidonBalance(test.db, { userId: fresh.id, email: fresh.email })).toEqual({ lent: 4, returned: 2, balance: 2 });
      const movements = await recentBidonMovements(test.db, { userId: fresh.id, email: fresh.email });
      expect(movements.map((movement) => [movement.kind, movement.quantity]).sort()).toEqual([
        ["lent", 1],
        ["lent", 3],
        ["returned", 2],
      ]);

      // A guest is the order's e-mail; their bidones are theirs alone, and an account with that e-mail takes them over.
      const guestEmail = `invitado-${randomUUID().slice(0, 8)}@prueba.pe`;
      const guest = await stopFor(driver, { guestEmail });
      await confirm(guest.deliveryId, delivered(2, 0));
      expect((await bidonBalance(test.db, { userId: null, email: guestEmail.toUpperCase() })).balance).toBe(2);
      expect((await bidonBalance(test.db, { userId: fresh.id, email: fresh.email })).balance).toBe(2);
      expect((await bidonBalance(test.db, { userId: "someone-else", email: guestEmail })).balance).toBe(2);
      // Many customers in one statement (the driver's day), each answered in its place.
      expect(
        await bidonBalances(test.db, [
          { userId: null, email: `nadie-${randomUUID().slice(0, 8)}@prueba.pe` },
          { userId: fresh.id, email: fresh.email },
          { userId: null, email: guestEmail },
        ]),
      ).toEqual([
        { lent: 0, returned: 0, balance: 0 },
        { lent: 4, returned: 2, balance: 2 },
        { lent: 2, returned: 0, balance: 2 },
      ]);

      // The driver sees the balance on the customer's next stop.
      const next = await stopFor(driver);
      const stops = await listDriverStops(test.db, driver.id, now);
      expect(stops.find((row) => row.id === next.deliveryId)!.bidonBalance).toBe(2);
    } finally {
      customer = previous;
    }
  });

  it("lists today's stops in route order with the amount to collect for an order awaiting its cash code", async () => {
    const routeDriver = await newDriver("Ana");
    const paid = await stopFor(routeDriver);
    const unpaid = await stopFor(routeDriver, { pay: "code" });
    const later = await stopFor(routeDriver);
    await test.db.update(deliveries).set({ routePosition: 1 }).where(eq(deliveries.id, unpaid.deliveryId));
    await test.db.update(deliveries).set({ routePosition: 2 }).where(eq(deliveries.id, paid.deliveryId));
    await test.db.update(deliveries).set({ deliveryDate: "2026-11-27" }).where(eq(deliveries.id, later.deliveryId));
    const stops = await listDriverStops(test.db, routeDriver.id, now);
    expect(stops.map((stop) => stop.id)).toEqual([unpaid.deliveryId, paid.deliveryId]);
    const [order] = await test.db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, unpaid.orderId));
    expect(stops[0]!.amountToCollectCents).toBe(order!.totalCents);
    expect(stops[1]!.amountToCollectCents).toBe(0);
    expect(stops[0]!).toMatchObject({ address: expect.stringMatching(/^Av. Prueba /), recipientName: "Rosa Quispe", phone: expect.stringMatching(/^9\d{8}$/) });
    expect(stops[0]!.items.length).toBeGreaterThan(0);

    // An order still waiting for its money goes out and is delivered, but keeps its status: the machine cannot ship it unpaid.
    await confirm(unpaid.deliveryId, { kind: "on_the_way" }, routeDriver);
    expect((await delivery(unpaid.deliveryId)).status).toBe("in_transit");
    expect(await orderStatus(unpaid.orderId)).toBe("payment_created");
    expect(
      await test.db
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.assignedDriverId, routeDriver.id), eq(deliveries.deliveryDate, today))),
    ).toHaveLength(2);
  });

  it("settles an unpaid code collected at the door with the delivery, once, and refuses to deliver it unrecorded", async () => {
    const unpaid = await stopFor(driver, { pay: "code" });
    await confirm(unpaid.deliveryId, { kind: "on_the_way" }, driver);
    const [order] = await test.db.select().from(orders).where(eq(orders.id, unpaid.orderId));

    expect(await confirm(unpaid.deliveryId, delivered(1, 0))).toEqual({ ok: false, reason: "collection_required", amountCents: order!.totalCents });
    expect((await delivery(unpaid.deliveryId)).status).toBe("in_transit");

    const collected: DriverConfirmation = { ...delivered(1, 0), collected: "cash" };
    expect(await confirm(unpaid.deliveryId, collected)).toEqual({ ok: true, changed: true });
    expect(await confirm(unpaid.deliveryId, collected)).toEqual({ ok: true, changed: false });
    expect((await delivery(unpaid.deliveryId)).status).toBe("delivered");
    expect(await orderStatus(unpaid.orderId)).toBe("delivered");
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, unpaid.orderId));
    expect(payment).toMatchObject({ status: "succeeded", method: "cash", collectedAtDoorBy: driver.email });
    expect(await test.db.select().from(invoices).where(eq(invoices.orderId, unpaid.orderId))).toHaveLength(1);
    const confirmations = await test.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `order-confirmation:${unpaid.orderId}`));
    expect(confirmations).toHaveLength(1);

    // A paid order: the driver who says they collected is stopped before anything is written.
    const paid = await stopFor(driver);
    expect(await confirm(paid.deliveryId, collected)).toEqual({ ok: false, reason: "already_paid" });
    expect((await delivery(paid.deliveryId)).status).toBe("scheduled");
  });

  it("treats the code paid after the driver collected as a second payment to give back", async () => {
    const unpaid = await stopFor(driver, { pay: "code" });
    await confirm(unpaid.deliveryId, { ...delivered(0, 0), collected: "yape" });
    const [payment] = await test.db.select().from(payments).where(eq(payments.orderId, unpaid.orderId));
    const outcome = await settleConfirmedCharge(
      test.db,
      payment!.id,
      { provider: payment!.provider, reference: payment!.providerReference ?? `code-${payment!.id}`, amountCents: payment!.amountCents, method: "cash" },
      { now, actor: "test", siteUrl },
    );
    expect(outcome).toMatchObject({ kind: "refund", reason: "duplicate_charge" });
  });
});
