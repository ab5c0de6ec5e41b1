import { randomUUID } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as QueueRoute from "~/routes/admin/reparto/confirmaciones";
import type * as DbContextModule from "~/server/db-context.server";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, deliveryProofs, driverConfirmationReceipts, outboxEmails, payments, staffActions, users } from "@server/db/schema";
import { DEMO_ADMIN, DEMO_CUSTOMER, DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-credentials";
import type { QueuedDriverConfirmation } from "@server/deliveries/index.server";
import { applyQueuedDriverConfirmations, applySandboxAction } from "@server/order-flows/index.server";
import { CLOCK_TRUSTED_MS, driverEventTime, MAX_CONFIRMATION_AGE_MS, phoneTime, PHONE_TIME_WINDOW_MS } from "@core/driver-clock";
import { limaDayStart, limaToday } from "@core/lima-dates";
import { loadCashBoxDay } from "@server/payments/index.server";
import { checkoutInput, uniqueContact } from "../support/checkout-fixture";
import { postToRoute, ROUTE_ORIGIN as origin, sessionCookie } from "../support/route-call";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const HOUR = 3_600_000;
/** The real clock (the route reads it): stops are on today's route, their orders placed the day before. */
const startedAt = new Date();
const placedAt = new Date(startedAt.getTime() - 30 * HOUR);

type Answer = {
  key: string;
  status: string;
  reason?: string;
  recordedAt?: string;
  message?: string;
  deliveryId?: string;
  fieldErrors?: Record<string, string>;
};

/**
 * Issue 26, decision 0079: the driver app's queue as the server takes it — the route
 * `POST /admin/reparto/confirmaciones` behind the staff area's guards, and the domain's clock rules.
 */
describe("the driver app's queue of confirmations", () => {
  let test: TestDatabase;
  let route: typeof QueueRoute;
  let dbContext: (typeof DbContextModule)["dbContext"];
  let staffArea: readonly unknown[];
  const cookies: Record<"repartidor" | "operaciones" | "admin" | "customer", string> = { repartidor: "", operaciones: "", admin: "", customer: "" };
  const ids: Record<"repartidor" | "admin", string> = { repartidor: "", admin: "" };

  /** A paid card order whose delivery is on `driverId`'s route. */
  async function stopFor(driverId: string, deliveryDate = limaToday(startedAt)) {
    const placed = await placeOrder(test.db, checkoutInput(placedAt, { correo: DEMO_CUSTOMER.email, ...uniqueContact() }), {
      now: placedAt,
      provider: "sandbox",
      userId: null,
    });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl: origin });
    const [delivery] = await test.db
      .update(deliveries)
      .set({ assignedDriverId: driverId, status: "scheduled", deliveryDate })
      .where(eq(deliveries.orderId, placed.orderId))
      .returning({ id: deliveries.id });
    return delivery!.id;
  }

  /** The request through the staff layout's guard and the route's own, as React Router runs them. */
  async function post(body: unknown, cookie?: string): Promise<{ status: number; location?: string | null; answers?: Answer[]; error?: string }> {
    const answer = await postToRoute({
      db: test.db,
      dbContext,
      route,
      outer: staffArea,
      path: "/admin/reparto/confirmaciones",
      body: typeof body === "string" ? body : JSON.stringify(body),
      cookie,
    });
    if (!answer.response || answer.location) return { status: answer.status, location: answer.location };
    return { status: answer.status, ...((await answer.response.json()) as { answers?: Answer[]; error?: string }) };
  }

  const tap = (deliveryId: string, fields: Record<string, string>, occurredAt: number, key = randomUUID()) => ({
    key,
    occurredAt,
    fields: { deliveryId, ...fields },
  });
  const onTheWay = { intent: "en_camino" };
  const deliveredTo = (receiverName: string) => ({ intent: "entregado", receiverName, fullBidonesLeft: "1", emptyBidonesCollected: "0" });
  const statusOf = async (deliveryId: string) => (await test.db.select().from(deliveries).where(eq(deliveries.id, deliveryId)))[0]!.status;
  const historyOf = async (deliveryId: string) => (await test.db.select().from(deliveries).where(eq(deliveries.id, deliveryId)))[0]!.statusHistory;
  const emailsOf = (deliveryId: string) =>
    test.db
      .select()
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `delivery-%${deliveryId}%`));

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    ({ dbContext } = await import("~/server/db-context.server"));
    route = await import("~/routes/admin/reparto/confirmaciones");
    staffArea = [(await import("~/server/staff.server")).staffAreaMiddleware];
    cookies.repartidor = await sessionCookie(test.db, DEMO_REPARTIDOR);
    cookies.operaciones = await sessionCookie(test.db, DEMO_OPERACIONES);
    cookies.admin = await sessionCookie(test.db, DEMO_ADMIN);
    cookies.customer = await sessionCookie(test.db, DEMO_CUSTOMER);
    for (const [who, email] of [
      ["repartidor", DEMO_REPARTIDOR.email],
      ["admin", DEMO_ADMIN.email],
    ] as const) {
      ids[who] = (await test.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
    }
  }, 60_000);
  afterAll(() => test.close());

  it("applies a queue in order with the driver's times, and a second send of it changes nothing", async () => {
    // Both taps on one Lima day, the stop's: a tap counts on its own day's route, and 20 minutes
    // back crosses Lima's midnight when the test runs just after it.
    let handedOver = Date.now() - 5 * 60_000;
    let wentOut = handedOver - 15 * 60_000;
    if (limaToday(new Date(wentOut)) !== limaToday(new Date(handedOver))) [wentOut, handedOver] = [wentOut - 30 * 60_000, handedOver - 30 * 60_000];
    const stop = await stopFor(ids.repartidor, limaToday(new Date(wentOut)));
    const batch = { sentAt: Date.now(), items: [tap(stop, onTheWay, wentOut), tap(stop, deliveredTo("Rosa Quispe"), handedOver)] };

    const first = await post(batch, cookies.repartidor);
    expect(first.status).toBe(200);
    expect(first.answers!.map((answer) => [answer.key, answer.status, answer.recordedAt])).toEqual([
      [batch.items[0]!.key, "applied", new Date(wentOut).toISOString()],
      [batch.items[1]!.key, "applied", new Date(handedOver).toISOString()],
    ]);
    const history = await historyOf(stop);
    expect(history.slice(-3).map((entry) => [entry.status, entry.timestamp, entry.actor])).toEqual([
      ["shipped", new Date(wentOut).toISOString(), DEMO_REPARTIDOR.email],
      ["in_transit", new Date(wentOut).toISOString(), DEMO_REPARTIDOR.email],
      ["delivered", new Date(handedOver).toISOString(), DEMO_REPARTIDOR.email],
    ]);
    const [proof] = await test.db.select().from(deliveryProofs).where(eq(deliveryProofs.deliveryId, stop));
    expect(proof).toMatchObject({ receiverName: "Rosa Quispe", createdAt: new Date(handedOver) });

    // The answer was lost; the phone sends the same queue again, later.
    const again = await post({ ...batch, sentAt: Date.now() }, cookies.repartidor);
    expect(again.answers!.map((answer) => answer.status)).toEqual(["applied", "applied"]);
    expect(again.answers!.map((answer) => answer.recordedAt)).toEqual(first.answers!.map((answer) => answer.recordedAt));
    expect(await historyOf(stop)).toEqual(history);
    expect((await emailsOf(stop)).map((email) => email.kind).sort()).toEqual(["delivery-delivered", "delivery-on-the-way"]);
    expect(await test.db.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.deliveryId, stop))).toHaveLength(2);
    const audit = await test.db.select({ action: staffActions.action }).from(staffActions).where(eq(staffActions.entityId, stop));
    expect(audit.map((entry) => entry.action).sort()).toEqual(["delivery.delivered", "delivery.in_transit"]);
  });

  it("applies a key once when two sends of it arrive at the same time", async () => {
    const stop = await stopFor(ids.repartidor);
    const batch = { sentAt: Date.now(), items: [tap(stop, onTheWay, Date.now() - 60_000)] };
    const answers = await Promise.all([post(batch, cookies.repartidor), post(batch, cookies.repartidor)]);
    expect(answers.map((answer) => answer.answers![0]!.status)).toEqual(["applied", "applied"]);
    expect((await historyOf(stop)).filter((entry) => entry.status === "in_transit")).toHaveLength(1);
    expect(await emailsOf(stop)).toHaveLength(1);
  });

  it("answers each item on its own: applied, another driver's stop and an unknown one refused alike, a blank name refused with its field", async () => {
    const mine = await stopFor(ids.repartidor);
    const theirs = await stopFor(ids.admin);
    const before = await historyOf(theirs);
    const now = Date.now();
    const batch = {
      sentAt: now,
      items: [
        tap(theirs, onTheWay, now - 3 * 60_000),
        tap(randomUUID(), onTheWay, now - 2 * 60_000),
        tap(mine, deliveredTo("   "), now - 90_000),
        tap(mine, onTheWay, now - 60_000),
      ],
    };
    const { status, answers } = await post(batch, cookies.repartidor);
    expect(status).toBe(200);
    expect(answers!.map((answer) => answer.status)).toEqual(["refused", "refused", "refused", "applied"]);
    // No oracle: another driver's stop reads exactly like one that does not exist.
    expect(answers![0]!.message).toBe("Esta parada ya no está en tu ruta: no se registró. Consulta con operaciones.");
    expect(answers![1]!.message).toBe(answers![0]!.message);
    expect(answers![2]).toMatchObject({
      deliveryId: mine,
      message: "Ingresa el nombre de quien recibe",
      fieldErrors: { receiverName: "Ingresa el nombre de quien recibe" },
    });
    expect(await historyOf(theirs)).toEqual(before);
    expect(await emailsOf(theirs)).toHaveLength(0);
    expect(await test.db.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.deliveryId, theirs))).toHaveLength(0);
    expect(await statusOf(mine)).toBe("in_transit");
  });

  it("says why a confirmation that no longer fits is refused: delivering a stop that failed meanwhile", async () => {
    const stop = await stopFor(ids.repartidor);
    const now = Date.now();
    const failed = { intent: "no_entregado", reason: "ausente", note: "" };
    const { answers } = await post(
      { sentAt: now, items: [tap(stop, onTheWay, now - 3 * 60_000), tap(stop, failed, now - 2 * 60_000), tap(stop, deliveredTo("Rosa"), now - 60_000)] },
      cookies.repartidor,
    );
    expect(answers!.map((answer) => answer.status)).toEqual(["applied", "applied", "refused"]);
    expect(answers![2]!.message).toBe("Esta parada está «No entregado» y no se puede marcar así.");
  });

  it("lets in only the repartidor (and the admin, on their own route): anonymous to /login, customer and operaciones to the 404", async () => {
    const stop = await stopFor(ids.repartidor);
    const batch = { sentAt: Date.now(), items: [tap(stop, onTheWay, Date.now())] };
    const anonymous = await post(batch);
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/login?redirectTo=${encodeURIComponent("/admin/reparto/confirmaciones")}`);
    expect((await post(batch, cookies.customer)).status).toBe(404);
    expect((await post(batch, cookies.operaciones)).status).toBe(404);
    // The admin passes the guard, but nobody confirms another driver's stop.
    const admin = await post(batch, cookies.admin);
    expect(admin.answers![0]!.status).toBe("refused");
    expect(await statusOf(stop)).toBe("scheduled");
    expect(await test.db.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.deliveryId, stop))).toHaveLength(0);
    // A key already used by one driver tells another nothing and changes nothing.
    const applied = await post(batch, cookies.repartidor);
    expect(applied.answers![0]!.status).toBe("applied");
    expect((await post(batch, cookies.admin)).answers![0]!.status).toBe("refused");
  });

  it("refuses a malformed batch, one too long and a body past its bound, writing nothing", async () => {
    const stop = await stopFor(ids.repartidor);
    expect((await post("no es json", cookies.repartidor)).status).toBe(400);
    expect((await post({ sentAt: Date.now(), items: [] }, cookies.repartidor)).status).toBe(400);
    const many = Array.from({ length: 101 }, () => tap(stop, onTheWay, Date.now()));
    expect((await post({ sentAt: Date.now(), items: many }, cookies.repartidor)).status).toBe(400);
    const huge = { sentAt: Date.now(), items: [tap(stop, { ...onTheWay, note: "x".repeat(1900) }, Date.now())], padding: "x".repeat(300 * 1024) };
    expect((await post(huge, cookies.repartidor)).status).toBe(413);
    expect(await statusOf(stop)).toBe("scheduled");
  });

  describe("the queue's integrity (issue 39, decision 0089)", () => {
    /** An order waiting for its cash code, on `driverId`'s route of `deliveryDate`. */
    async function cashStopFor(driverId: string, deliveryDate: string) {
      const placed = await placeOrder(test.db, checkoutInput(placedAt, { correo: DEMO_CUSTOMER.email, ...uniqueContact() }), {
        now: placedAt,
        provider: "sandbox",
        userId: null,
      });
      if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
      await applySandboxAction(test.db, placed.paymentId, "issue_code", { now: placedAt, siteUrl: origin });
      const [delivery] = await test.db
        .update(deliveries)
        .set({ assignedDriverId: driverId, status: "scheduled", deliveryDate })
        .where(eq(deliveries.orderId, placed.orderId))
        .returning({ id: deliveries.id });
      return { deliveryId: delivery!.id, orderId: placed.orderId, paymentId: placed.paymentId };
    }
    const collectedInCash = (deliveryId: string, occurredAt: Date): QueuedDriverConfirmation => ({
      key: randomUUID(),
      deliveryId,
      intent: "entregado",
      confirmation: { kind: "delivered", receiverName: "Rosa Quispe", fullBidonesLeft: 1, emptyBidonesCollected: 0, collected: "cash" },
      occurredAt,
    });

    it("books a cash collection the phone dates 20 hours back at its arrival, keeps the phone's time beside it, and the caja shows both", async () => {
      // Noon in Lima today: the day's route, whatever time the test runs.
      const today = limaToday(startedAt);
      const receivedAt = new Date(limaDayStart(today).getTime() + 12 * HOUR);
      const driver = { id: ids.repartidor, email: DEMO_REPARTIDOR.email, role: "repartidor" as const, clientAddress: "127.0.0.1" };
      const backdated = await cashStopFor(ids.repartidor, today);
      const recent = await cashStopFor(ids.repartidor, today);
      const phoneSays = new Date(receivedAt.getTime() - 20 * HOUR);
      const inWindow = new Date(receivedAt.getTime() - HOUR);
      const items = [collectedInCash(backdated.deliveryId, phoneSays), collectedInCash(recent.deliveryId, inWindow)];

      const answers = await applyQueuedDriverConfirmations(test.db, { driver, items, sentAt: receivedAt, now: receivedAt, siteUrl: origin });
      expect(answers).toEqual([
        { key: items[0]!.key, status: "applied", duplicate: false, recordedAt: receivedAt },
        { key: items[1]!.key, status: "applied", duplicate: false, recordedAt: inWindow },
      ]);
      const receipt = async (key: string) => (await test.db.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.key, key)))[0];
      expect(await receipt(items[0]!.key)).toMatchObject({ claimedAt: phoneSays, recordedAt: receivedAt, receivedAt, phoneTimeAdjusted: true });
      expect(await receipt(items[1]!.key)).toMatchObject({ claimedAt: inWindow, recordedAt: inWindow, phoneTimeAdjusted: false });
      const payment = async (id: string) => (await test.db.select().from(payments).where(eq(payments.id, id)))[0]!;
      expect(await payment(backdated.paymentId)).toMatchObject({ status: "succeeded", settledAt: receivedAt, doorPhoneTime: phoneSays });
      expect(await payment(recent.paymentId)).toMatchObject({ settledAt: inWindow, doorPhoneTime: null });

      const box = (await loadCashBoxDay(test.db, today)).drivers.find((driverBox) => driverBox.driverEmail === DEMO_REPARTIDOR.email)!;
      const byOrder = new Map(box.collections.map((collection) => [collection.orderId, collection]));
      expect(byOrder.get(backdated.orderId)).toMatchObject({ method: "cash", collectedAt: receivedAt, phoneTime: phoneSays });
      expect(byOrder.get(recent.orderId)).toMatchObject({ collectedAt: inWindow, phoneTime: null });
    });

    it("refuses a key sent again with another tap (another stop, button or fields), and still answers the same tap applied", async () => {
      const first = await stopFor(ids.repartidor);
      const second = await stopFor(ids.repartidor);
      const third = await stopFor(ids.repartidor);
      const now = Date.now();
      const original = tap(first, onTheWay, now - 2 * 60_000);
      const handedOver = tap(third, deliveredTo("Rosa Quispe"), now - 60_000);
      expect((await post({ sentAt: now, items: [original, handedOver] }, cookies.repartidor)).answers!.map((answer) => answer.status)).toEqual([
        "applied",
        "applied",
      ]);
      const firstHistory = await historyOf(first);

      const otherStop = { ...tap(second, onTheWay, now - 2 * 60_000), key: original.key };
      const otherButton = { ...tap(first, { intent: "no_entregado", reason: "ausente", note: "" }, now - 2 * 60_000), key: original.key };
      const otherFields = { ...tap(third, deliveredTo("Juan Pérez"), now - 60_000), key: handedOver.key };
      const { status, answers } = await post({ sentAt: Date.now(), items: [otherStop, otherButton, otherFields, original] }, cookies.repartidor);
      expect(status).toBe(200);
      expect(answers!.map((answer) => [answer.key, answer.status, answer.reason])).toEqual([
        [original.key, "refused", "key_reused"],
        [original.key, "refused", "key_reused"],
        [handedOver.key, "refused", "key_reused"],
        [original.key, "applied", undefined],
      ]);
      expect(answers![0]).toMatchObject({
        deliveryId: second,
        message: "Esta confirmación llegó con la clave de otra ya registrada y no se registró. Vuelve a marcar la parada.",
      });
      expect(await statusOf(second)).toBe("scheduled");
      expect(await historyOf(first)).toEqual(firstHistory);
      const [proof] = await test.db.select().from(deliveryProofs).where(eq(deliveryProofs.deliveryId, third));
      expect(proof!.receiverName).toBe("Rosa Quispe");
      expect(await test.db.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.deliveryId, second))).toHaveLength(0);
    });

    it("refuses a tap whose time is not a time on its own, so the taps after it are applied", async () => {
      const stop = await stopFor(ids.repartidor);
      const now = Date.now();
      const huge = tap(stop, onTheWay, 1e20);
      const words = { ...tap(stop, onTheWay, 0), occurredAt: "ayer" };
      const beyond2100 = tap(stop, onTheWay, Date.UTC(2100, 0, 1));
      const good = tap(stop, onTheWay, now - 60_000);
      // A "sent at" that is no time either is ignored: the tap's own time stands.
      const { status, answers } = await post({ sentAt: 1e20, items: [huge, words, beyond2100, good] }, cookies.repartidor);
      expect(status).toBe(200);
      expect(answers!.map((answer) => [answer.key, answer.status, answer.reason])).toEqual([
        [huge.key, "refused", "invalid"],
        [words.key, "refused", "invalid"],
        [beyond2100.key, "refused", "invalid"],
        [good.key, "applied", undefined],
      ]);
      expect(answers![0]).toMatchObject({
        deliveryId: stop,
        message: "Esta confirmación llegó con una hora o una clave no válida y no se registró. Vuelve a marcar la parada si hace falta.",
      });
      expect(answers![3]!.recordedAt).toBe(new Date(now - 60_000).toISOString());
      expect(await test.db.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.key, huge.key))).toHaveLength(0);
      expect(await statusOf(stop)).toBe("in_transit");
    });

    it("answers another driver's stop and an unknown one alike whatever the tap's time; only the driver's own hears of the 48 hours", async () => {
      const theirs = await stopFor(ids.admin);
      const mine = await stopFor(ids.repartidor);
      const now = Date.now();
      const daysAgo = now - 3 * 24 * HOUR;
      const { answers } = await post(
        { sentAt: now, items: [tap(theirs, onTheWay, daysAgo), tap(randomUUID(), onTheWay, daysAgo), tap(mine, onTheWay, daysAgo)] },
        cookies.repartidor,
      );
      expect(answers!.map((answer) => [answer.status, answer.reason, answer.message])).toEqual([
        ["refused", "not_found", "Esta parada ya no está en tu ruta: no se registró. Consulta con operaciones."],
        ["refused", "not_found", "Esta parada ya no está en tu ruta: no se registró. Consulta con operaciones."],
        ["refused", "too_old", "Esta confirmación tiene más de 48 horas y no se registró: avisa a operaciones."],
      ]);
      expect(await statusOf(theirs)).toBe("scheduled");
    });
  });

  describe("the driver's clock (decision 0079)", () => {
    const receivedAt = new Date(placedAt.getTime() + 30 * HOUR);
    const at = (offset: number) => new Date(receivedAt.getTime() + offset);

    it("believes a phone within two minutes of the server, and corrects one further off by its offset", () => {
      expect(driverEventTime({ occurredAt: at(-HOUR), sentAt: at(-CLOCK_TRUSTED_MS), receivedAt })).toEqual({
        ok: true,
        at: at(-HOUR),
        phoneTimeAdjusted: false,
      });
      // The phone runs three hours behind: what it calls an hour ago was an hour ago by ours too.
      expect(driverEventTime({ occurredAt: at(-4 * HOUR), sentAt: at(-3 * HOUR), receivedAt })).toEqual({ ok: true, at: at(-HOUR), phoneTimeAdjusted: false });
    });

    it("takes a time just in the future as now, refuses one older than 48 hours, and never goes before the delivery's last change", () => {
      expect(driverEventTime({ occurredAt: at(90_000), sentAt: at(0), receivedAt })).toEqual({ ok: true, at: receivedAt, phoneTimeAdjusted: false });
      expect(driverEventTime({ occurredAt: at(-MAX_CONFIRMATION_AGE_MS - 1), sentAt: at(0), receivedAt })).toEqual({ ok: false, reason: "too_old" });
      expect(driverEventTime({ occurredAt: at(-2 * HOUR), sentAt: at(0), receivedAt, notBefore: at(-HOUR) })).toEqual({
        ok: true,
        at: at(-HOUR),
        phoneTimeAdjusted: false,
      });
    });

    it("believes a phone's time only within the last 12 hours and two minutes ahead: outside, the arrival, marked as adjusted", () => {
      const taken = (occurredAt: Date, sentAt = receivedAt) => driverEventTime({ occurredAt, sentAt, receivedAt });
      expect(taken(at(-PHONE_TIME_WINDOW_MS))).toEqual({ ok: true, at: at(-PHONE_TIME_WINDOW_MS), phoneTimeAdjusted: false });
      expect(taken(at(-PHONE_TIME_WINDOW_MS - 1))).toEqual({ ok: true, at: receivedAt, phoneTimeAdjusted: true });
      expect(taken(at(-20 * HOUR))).toEqual({ ok: true, at: receivedAt, phoneTimeAdjusted: true });
      expect(taken(at(CLOCK_TRUSTED_MS + 1))).toEqual({ ok: true, at: receivedAt, phoneTimeAdjusted: true });
      // A "sent at" of the phone's choosing moves its times by as much, never out of the window.
      expect(taken(at(-HOUR), at(12 * HOUR))).toEqual({ ok: true, at: receivedAt, phoneTimeAdjusted: true });
    });

    it("tells a broken time from a time: not a number, not finite, before 1970 or from 2100 on", () => {
      expect(phoneTime(receivedAt.getTime())).toEqual(receivedAt);
      for (const broken of [1e20, Number.MAX_SAFE_INTEGER, Date.UTC(2100, 0, 1), -1, Number.NaN, Number.POSITIVE_INFINITY, "1700000000000", null, undefined])
        expect(phoneTime(broken), String(broken)).toBeNull();
    });

    it("records a tap from a clock set in the future at the arrival, and refuses a days-old one with nothing written", async () => {
      const stop = await stopFor(ids.repartidor);
      const driver = { id: ids.repartidor, email: DEMO_REPARTIDOR.email, role: "repartidor" as const, clientAddress: "127.0.0.1" };
      // After the order's own history (placed and paid at placedAt), as a real day would be.
      const item = (occurredAt: Date): QueuedDriverConfirmation => ({
        key: randomUUID(),
        deliveryId: stop,
        intent: "en_camino",
        confirmation: { kind: "on_the_way" },
        occurredAt,
      });
      const old = item(at(-3 * 24 * HOUR));
      const future = item(at(HOUR));
      const answers = await applyQueuedDriverConfirmations(test.db, { driver, items: [old, future], sentAt: receivedAt, now: receivedAt, siteUrl: origin });
      expect(answers).toEqual([
        { key: old.key, status: "refused", refusal: { ok: false, reason: "too_old" } },
        { key: future.key, status: "applied", duplicate: false, recordedAt: receivedAt },
      ]);
      const [kept] = await test.db.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.key, future.key));
      expect(kept).toMatchObject({ claimedAt: at(HOUR), recordedAt: receivedAt, receivedAt, phoneTimeAdjusted: true });
      expect((await historyOf(stop)).at(-1)).toMatchObject({ status: "in_transit", timestamp: receivedAt.toISOString() });
      expect(await test.db.select().from(driverConfirmationReceipts).where(eq(driverConfirmationReceipts.key, old.key))).toHaveLength(0);
    });
  });
});
