/**
 * Issue 25: a delivery the driver could not make gets its new date from the customer, at the link
 * of the "No pudimos entregar" e-mail and WhatsApp message (/orden/{id}/nueva-fecha?token=…), under
 * checkout's rules (weekdays, cut-off, closed days, room), once.
 */
import { randomUUID } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, outboxEmails, users } from "@server/db/schema";
import { failedDeliveryToRebook, rebookFailedDelivery } from "@server/deliveries/index.server";
import { applySandboxAction, confirmDriverStop } from "@server/order-flows/index.server";
import { receiptToken } from "@server/orders/index.server";
import { dbContext } from "~/server/db-context.server";
import * as page from "~/routes/checkout/order-new-date";
import { checkoutInput } from "../support/checkout-fixture";
import { isoWeekday, limaToday } from "@core/lima-dates";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Placed Tuesday 24 November 2026 for Wednesday the 25th in Miraflores (Mon/Wed/Fri); the stop fails that Wednesday at 10:00 Lima.
const placedAt = new Date("2026-11-24T15:00:00Z");
const failedAt = new Date("2026-11-25T15:00:00Z");
const siteUrl = "http://shop.test";

describe("the customer picks a new date for a failed delivery (issue 25)", () => {
  let test: TestDatabase;
  let driver: StaffActor;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const email = `reparto-${randomUUID().slice(0, 8)}@demo.pe`;
    await test.db
      .insert(users)
      .values({ id: `staff-${email}`, name: "Jorge", email, emailVerified: true, firstName: "Jorge", lastName: "R", role: "repartidor" });
    driver = { id: `staff-${email}`, email, role: "repartidor", clientAddress: "127.0.0.1" };
  });
  afterAll(() => test.close());

  async function failedStop() {
    const placed = await placeOrder(test.db, checkoutInput(placedAt, { correo: `r-${randomUUID().slice(0, 8)}@prueba.pe` }), {
      now: placedAt,
      provider: "sandbox",
    });
    if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("not placed");
    await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl });
    const [delivery] = await test.db
      .update(deliveries)
      .set({ assignedDriverId: driver.id, status: "scheduled" })
      .where(eq(deliveries.orderId, placed.orderId))
      .returning();
    const stop = { deliveryId: delivery!.id, driver, now: failedAt, siteUrl };
    await confirmDriverStop(test.db, { ...stop, confirmation: { kind: "on_the_way" } });
    await confirmDriverStop(test.db, { ...stop, confirmation: { kind: "failed", reason: "ausente", note: null } });
    return { orderId: placed.orderId, deliveryId: delivery!.id };
  }

  it("offers the district's next open days with room, from after the cut-off", async () => {
    const stop = await failedStop();
    const found = await failedDeliveryToRebook(test.db, stop.orderId, failedAt);
    if (found?.state !== "rebook") throw new Error("nothing to rebook");
    expect(found.value.delivery.id).toBe(stop.deliveryId);
    // Thursday is not a Miraflores day; Friday the 27th is the first.
    expect(found.value.offered[0]!.date).toBe("2026-11-27");
    expect(found.value.offered.every((day) => [1, 3, 5].includes(isoWeekday(day.date)))).toBe(true);
  });

  it("moves the delivery to the chosen day once, off the route, and e-mails the new date", async () => {
    const stop = await failedStop();
    const choose = (date: string, deliveryWindow: string) =>
      rebookFailedDelivery(test.db, { orderId: stop.orderId, deliveryId: stop.deliveryId, date, deliveryWindow, now: failedAt, siteUrl });
    const [first, second] = await Promise.all([choose("2026-11-27", "tarde"), choose("2026-11-27", "tarde")]);
    expect([first, second].filter((result) => result.ok && result.changed)).toHaveLength(1);
    expect([first, second].every((result) => result.ok)).toBe(true);
    const [row] = await test.db.select().from(deliveries).where(eq(deliveries.id, stop.deliveryId));
    expect(row).toMatchObject({ status: "scheduled", deliveryDate: "2026-11-27", deliveryWindow: "tarde", assignedDriverId: null, routePosition: null });
    expect(row!.statusHistory.at(-2)).toMatchObject({ status: "rescheduled", actor: "cliente" });
    expect(row!.statusHistory.at(-2)!.note).toContain("Nueva fecha elegida por el cliente");
    const emails = await test.db
      .select()
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `delivery-rescheduled:${stop.deliveryId}:%`));
    expect(emails).toHaveLength(1);
    expect(await choose("2026-11-30", "manana")).toEqual({ ok: false, reason: "already_rebooked" });
  });

  it("refuses a day the district is not served or that is past, and changes nothing", async () => {
    const stop = await failedStop();
    const choose = (date: string) =>
      rebookFailedDelivery(test.db, { orderId: stop.orderId, deliveryId: stop.deliveryId, date, deliveryWindow: "manana", now: failedAt, siteUrl });
    expect(await choose("2026-11-26")).toMatchObject({ ok: false, reason: "unavailable", message: expect.stringMatching(/disponible/) });
    expect(await choose("2026-11-25")).toMatchObject({ ok: false, reason: "unavailable" });
    const [row] = await test.db.select().from(deliveries).where(eq(deliveries.id, stop.deliveryId));
    expect(row!.status).toBe("failed");
  });

  it("opens the page only with the order's signed link (or the browser that placed it); anyone else gets a 404", async () => {
    const stop = await failedStop();
    const context = new RouterContextProvider();
    context.set(dbContext, test.db);
    const load = (search: string) =>
      page.loader({ request: new Request(`${siteUrl}/orden/${stop.orderId}/nueva-fecha${search}`), params: { orderId: stop.orderId }, context } as never);
    const status = async (run: () => Promise<unknown>) => {
      try {
        await run();
        return 200;
      } catch (error) {
        return (error as { init?: { status?: number } }).init?.status ?? 500;
      }
    };
    expect(await status(() => load(""))).toBe(404);
    expect(await status(() => load("?token=falso"))).toBe(404);
    expect(await status(() => load(`?token=${receiptToken(randomUUID())}`))).toBe(404);
    const loaded = await load(`?token=${receiptToken(stop.orderId)}`);
    expect(loaded.rebook?.delivery.id).toBe(stop.deliveryId);
    // The page offers from the real clock: Miraflores days after Lima's today.
    const first = loaded.rebook!.options[0]!;
    expect(first.value).toBe(`${first.date}|${first.window}`);
    expect(first.date > limaToday(new Date())).toBe(true);
    expect([1, 3, 5]).toContain(isoWeekday(first.date));

    const post = (search: string, slot: string) =>
      page.action({
        request: new Request(`${siteUrl}/orden/${stop.orderId}/nueva-fecha${search}`, {
          method: "POST",
          body: new URLSearchParams({ deliveryId: stop.deliveryId, slot }),
        }),
        params: { orderId: stop.orderId },
        context,
      } as never);
    expect(await status(() => post("", "2026-11-27|manana"))).toBe(404);
    expect((await test.db.select().from(deliveries).where(eq(deliveries.id, stop.deliveryId)))[0]!.status).toBe("failed");
  });
});
