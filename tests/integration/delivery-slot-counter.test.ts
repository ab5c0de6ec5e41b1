import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, districts, orders, users } from "@server/db/schema";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-accounts";
import { inTransaction } from "@server/db/transaction";
import { rescheduleDay, rescheduleDeliveries, setDistrictCapacities, transitionDeliveries } from "@server/deliveries/index.server";
import { expireUnpaidOrders } from "@server/order-flows/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { slotCounterViolations } from "../support/invariants";
import { newCustomer, runJobs, siteUrl, subscribe } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 2026-11-24, 10:00 in Lima; the checkout fixture delivers Wednesday the 25th, mañana, in Miraflores.
const now = new Date("2026-11-24T15:00:00Z");
const WEDNESDAY = "2026-11-25";
const FRIDAY = "2026-11-27";

/**
 * Decision 0102: `delivery_slots.open_count` is kept by triggers. Whatever a step did, every
 * slot's count must equal a fresh count of its open deliveries (`slotCounterViolations`, which the
 * stress and reliability suites' invariants check too).
 */
describe("the per-slot counter of open deliveries (decision 0102)", () => {
  let test: TestDatabase;
  let actor: StaffActor;
  let miraflores: number;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [staff] = await test.db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    actor = { id: staff!.id, email: staff!.email, role: "operaciones", clientAddress: "127.0.0.1" };
    [{ id: miraflores }] = (await test.db.select({ id: districts.id }).from(districts).where(eq(districts.name, "Miraflores"))) as [{ id: number }];
  });
  afterAll(() => test.close());

  const counterMismatches = () => slotCounterViolations(test.db);

  const place = async (email: string, overrides: Parameters<typeof checkoutInput>[1] = {}) => {
    const placed = await placeOrder(test.db, checkoutInput(now, { correo: email, ...overrides }), { now, provider: "sandbox" });
    if (!placed.ok) throw new Error(`not placed: ${JSON.stringify(placed)}`);
    const [delivery] = await test.db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.orderId, placed.orderId));
    return { orderId: placed.orderId, deliveryId: delivery!.id };
  };
  const transition = (ids: string[], to: "shipped" | "delivered" | "failed") =>
    inTransaction(test.db, (tx) => transitionDeliveries(tx, ids, to, { actor: actor.email, now }));

  it("matches a fresh count of every slot through orders placed, cancelled, delivered, failed, moved, subscribed, deleted and a district's own places", async () => {
    // The seed's deliveries were counted as they were inserted (and migration 0049 backfilled any before it).
    expect(await counterMismatches()).toEqual([]);
    const slotOf = async (deliveryId: string) =>
      (await test.db.select({ date: deliveries.deliveryDate, status: deliveries.status }).from(deliveries).where(eq(deliveries.id, deliveryId)))[0]!;

    const placed = [];
    for (let index = 0; index < 6; index += 1) placed.push(await place(`contador${index}@example.pe`));
    const tarde = await place("contador-tarde@example.pe", { rangoHorario: "tarde" });
    expect(await counterMismatches()).toEqual([]);

    // Cancelled: the card window runs out unpaid, which cancels the order's delivery.
    await expireUnpaidOrders(test.db, new Date(now.getTime() + 31 * 60_000));
    expect((await slotOf(placed[0]!.deliveryId)).status).toBe("cancelled");
    expect(await counterMismatches()).toEqual([]);
    // The rest stand in for paid ones (expiry cancelled them too): paid and open again, as Despacho finds them.
    const rest = [...placed.slice(1), tarde];
    await test.db
      .update(orders)
      .set({ status: "paid" })
      .where(
        inArray(
          orders.id,
          rest.map((each) => each.orderId),
        ),
      );
    await test.db
      .update(deliveries)
      .set({ status: "scheduled" })
      .where(
        inArray(
          deliveries.id,
          rest.map((each) => each.deliveryId),
        ),
      );
    expect(await counterMismatches()).toEqual([]);

    // Delivered (frees its place), failed (keeps it: it must be delivered again).
    await transition([placed[1]!.deliveryId, placed[2]!.deliveryId], "shipped");
    await transition([placed[1]!.deliveryId], "delivered");
    await transition([placed[2]!.deliveryId], "failed");
    expect(await counterMismatches()).toEqual([]);

    // Staff move two to Friday tarde (one of them already in a tarde), then a whole day moves on.
    await rescheduleDeliveries(test.db, actor, { ids: [placed[3]!.deliveryId, tarde.deliveryId], date: FRIDAY, deliveryWindow: "tarde", now, siteUrl });
    expect((await slotOf(placed[3]!.deliveryId)).date).toBe(FRIDAY);
    expect(await counterMismatches()).toEqual([]);
    const day = await rescheduleDay(test.db, actor, { date: WEDNESDAY, reason: "Corte de agua", now, siteUrl });
    expect(day.moved.length).toBeGreaterThan(0);
    expect(await counterMismatches()).toEqual([]);

    // Miraflores gets its own places on Friday tarde and loses them again: its deliveries there
    // move out of the shop-wide pool and back.
    await setDistrictCapacities(test.db, actor, miraflores, [{ dayNumber: 5, window: "tarde", capacity: 50 }]);
    expect(await counterMismatches()).toEqual([]);
    const [own] = await test.db
      .execute(sql`select open_count from delivery_slots where delivery_date = ${FRIDAY} and delivery_window = 'tarde' and scope = ${`district:${miraflores}`}`)
      .then((result) => (result as unknown as { rows: { open_count: number }[] }).rows);
    expect(own!.open_count).toBeGreaterThanOrEqual(2);
    await setDistrictCapacities(test.db, actor, miraflores, [{ dayNumber: 5, window: "tarde", capacity: null }]);
    expect(await counterMismatches()).toEqual([]);

    // A subscription's deliveries: its first with the order, the next by the scheduler.
    const customer = await newCustomer(test.db, "contador");
    const subscriptionId = await subscribe(test.db, customer, "mensual");
    await runJobs(test.db, "2026-12-20", "2026-12-24");
    expect(await test.db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.subscriptionId, subscriptionId))).toHaveLength(2);
    expect(await counterMismatches()).toEqual([]);

    // A delete (an order's deliveries go with it).
    await test.db.delete(orders).where(and(eq(orders.id, placed[4]!.orderId)));
    expect(await counterMismatches()).toEqual([]);
  });
});
