import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import type { StaffActor } from "@server/audit/index.server";
import { deliveries, districts, outboxEmails, products, productVariants, staffActions, users } from "@server/db/schema";
import {
  addClosedDay,
  assignDeliveries,
  loadDispatchDay,
  loadRouteSheets,
  moveRouteStop,
  prepareDeliveries,
  rescheduleDeliveries,
  setDefaultCapacities,
} from "@server/deliveries/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import { DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-accounts";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 1 June 2027, 10:00 in Lima: far from the demo data's days, so the Wednesday below holds only this file's deliveries.
const now = new Date("2027-06-01T15:00:00Z");
const day = "2027-06-02";
const friday = "2027-06-04";
const siteUrl = "http://shop.test";

describe("Despacho: the day's deliveries and the bulk actions on them", () => {
  let test: TestDatabase;
  let actor: StaffActor;
  let driverId: string;
  let ids: { cajaManana: string; bidonTarde: string; cashChorrillos: string; unpaidCard: string; otherDay: string };
  let sku: (code: string) => Promise<{ productId: number; variantId: number; priceCents: number }>;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const db = test.db;
    const [staff] = await db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    actor = { id: staff!.id, email: staff!.email, role: "operaciones", clientAddress: "127.0.0.1" };
    driverId = (await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email)))[0]!.id;
    sku = async (code) => {
      const [row] = await db
        .select({ productId: productVariants.productId, variantId: productVariants.id, priceCents: productVariants.priceCents })
        .from(productVariants)
        .where(eq(productVariants.sku, code));
      return row!;
    };
    const districtId = async (name: string) => (await db.select({ id: districts.id }).from(districts).where(eq(districts.name, name)))[0]!.id;
    const chorrillos = await districtId("Chorrillos");
    const recarga = await sku("VA-BH20-REC");
    const [caja] = await db.select({ id: products.id, priceCents: products.priceCents }).from(products).where(eq(products.sku, "VA-CX20"));

    async function order(input: {
      items: { productId: number; variantId: number | null; quantity: number }[];
      subtotal: number;
      pay: "approve_card" | "issue_code" | null;
      overrides?: Record<string, unknown>;
    }) {
      const placed = await placeOrder(
        db,
        checkoutInput(now, {
          correo: `despacho-${randomUUID().slice(0, 8)}@prueba.pe`,
          fecha: day,
          items: input.items,
          clientSubtotalCents: input.subtotal,
          ...input.overrides,
        }),
        { now, provider: "sandbox", userId: null },
      );
      if (!placed.ok || placed.nextStep !== "process_payment") throw new Error("order not placed");
      if (input.pay) await applySandboxAction(db, placed.paymentId, input.pay, { now, siteUrl });
      return (await db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.orderId, placed.orderId)))[0]!.id;
    }
    ids = {
      cajaManana: await order({ items: [{ productId: caja!.id, variantId: null, quantity: 1 }], subtotal: caja!.priceCents!, pay: "approve_card" }),
      bidonTarde: await order({
        items: [{ productId: recarga.productId, variantId: recarga.variantId, quantity: 3 }],
        subtotal: recarga.priceCents * 3,
        pay: "approve_card",
        overrides: { rangoHorario: "tarde" },
      }),
      cashChorrillos: await order({
        items: [{ productId: caja!.id, variantId: null, quantity: 2 }],
        subtotal: caja!.priceCents! * 2,
        pay: "issue_code",
        overrides: { districtId: chorrillos, direccion: "Av. Huaylas 456" },
      }),
      unpaidCard: await order({ items: [{ productId: caja!.id, variantId: null, quantity: 5 }], subtotal: caja!.priceCents! * 5, pay: null }),
      otherDay: await order({
        items: [{ productId: caja!.id, variantId: null, quantity: 1 }],
        subtotal: caja!.priceCents!,
        pay: "approve_card",
        overrides: { fecha: friday, diaHabil: 5 },
      }),
    };
  });
  afterAll(() => test.close());

  const deliveryRow = async (id: string) => (await test.db.select().from(deliveries).where(eq(deliveries.id, id)))[0]!;
  const auditOf = (deliveryIds: string[]) =>
    test.db.select().from(staffActions).where(inArray(staffActions.entityId, deliveryIds)).orderBy(asc(staffActions.id));
  const statusesOf = async (deliveryIds: string[]) =>
    Object.fromEntries(
      (await test.db.select({ id: deliveries.id, status: deliveries.status }).from(deliveries).where(inArray(deliveries.id, deliveryIds))).map((row) => [
        row.id,
        row.status,
      ]),
    );

  it("groups the day's paid and cash-code deliveries by district and window, with what to load and to collect", async () => {
    const view = await loadDispatchDay(test.db, day);
    expect(view.groups.map((group) => [group.districtName, group.deliveryWindow, group.deliveries.map((delivery) => delivery.id)])).toEqual([
      ["Chorrillos", "manana", [ids.cashChorrillos]],
      ["Miraflores", "manana", [ids.cajaManana]],
      ["Miraflores", "tarde", [ids.bidonTarde]],
    ]);
    expect(view.total).toBe(3);
    // No district has its own figure: each group shares the shop-wide pool, whose places are counted (seeded: 120 per window).
    expect(view.groups.every((group) => group.capacity === null)).toBe(true);
    expect(view.pool).toEqual([
      // The unpaid order's delivery is not dispatched, yet holds its place until the order expires.
      { window: "manana", capacity: 120, used: 3 },
      { window: "tarde", capacity: 120, used: 1 },
    ]);
    expect(view.load.map((line) => [line.title, line.variantTitle, line.units])).toEqual([
      ["Bidón retornable hogar 20 L", "Recarga (canje de envase)", 3],
      ["Caja de 20 L con dispensador", null, 3],
    ]);
    expect(view.bidones).toEqual({ full: 3, empty: 3 });
    const cash = view.groups[0]!.deliveries[0]!;
    expect(cash.amountToCollectCents).toBeGreaterThan(0);
    expect(view.groups[1]!.deliveries[0]!.amountToCollectCents).toBeNull();
    expect(view.drivers.map((driver) => driver.id)).toContain(driverId);
  });

  it("refuses the whole Preparar when one delivery cannot move, is unknown or is not paid, and writes nothing", async () => {
    const before = await statusesOf([ids.cajaManana, ids.bidonTarde]);
    for (const extra of [randomUUID(), ids.unpaidCard]) {
      await expect(prepareDeliveries(test.db, actor, { ids: [ids.cajaManana, ids.bidonTarde, extra], now })).rejects.toThrow(/envío/);
    }
    // A delivery already assigned (scheduled) cannot go back to preparing.
    await assignDeliveries(test.db, actor, { ids: [ids.otherDay], driverId, now });
    await expect(prepareDeliveries(test.db, actor, { ids: [ids.cajaManana, ids.otherDay], now })).rejects.toThrow(/Programado/i);
    expect(await statusesOf([ids.cajaManana, ids.bidonTarde])).toEqual(before);
    expect((await deliveryRow(ids.cajaManana)).statusHistory).toHaveLength(1);
    expect(await auditOf([ids.cajaManana, ids.bidonTarde])).toHaveLength(0);
  });

  it("prepares the selection once: one history entry and one audit row per delivery, a repeated POST changes nothing", async () => {
    expect(await prepareDeliveries(test.db, actor, { ids: [ids.cajaManana, ids.bidonTarde], now })).toEqual({ changed: 2, unchanged: 0 });
    expect(await prepareDeliveries(test.db, actor, { ids: [ids.cajaManana, ids.bidonTarde], now })).toEqual({ changed: 0, unchanged: 2 });
    for (const id of [ids.cajaManana, ids.bidonTarde]) {
      const row = await deliveryRow(id);
      expect(row.status).toBe("preparing");
      expect(row.statusHistory.map((entry) => [entry.status, entry.actor ?? null])).toEqual([
        ["pending", null],
        ["preparing", DEMO_OPERACIONES.email],
      ]);
    }
    const audit = await auditOf([ids.cajaManana, ids.bidonTarde]);
    expect(
      audit.map((row) => [row.action, row.entityId, (row.before as { status: string }).status, (row.after as { status: string }).status, row.actorRole]).sort(),
    ).toEqual(
      [
        ["delivery.prepare", ids.bidonTarde, "pending", "preparing", "operaciones"],
        ["delivery.prepare", ids.cajaManana, "pending", "preparing", "operaciones"],
      ].sort(),
    );
  });

  it("assigns to the repartidor at the end of their day's route, all or nothing, once", async () => {
    await expect(assignDeliveries(test.db, actor, { ids: [ids.cajaManana], driverId: actor.id, now })).rejects.toThrow(/repartidor/);
    await expect(assignDeliveries(test.db, actor, { ids: [ids.cajaManana, randomUUID()], driverId, now })).rejects.toThrow(/no existe/);
    expect((await deliveryRow(ids.cajaManana)).assignedDriverId).toBeNull();

    // Tarde before mañana in the selection: the route still takes mañana first.
    expect(await assignDeliveries(test.db, actor, { ids: [ids.bidonTarde, ids.cajaManana], driverId, now })).toEqual({ changed: 2, unchanged: 0 });
    expect(await assignDeliveries(test.db, actor, { ids: [ids.bidonTarde, ids.cajaManana], driverId, now })).toEqual({ changed: 0, unchanged: 2 });
    expect(await assignDeliveries(test.db, actor, { ids: [ids.cashChorrillos], driverId, now })).toEqual({ changed: 1, unchanged: 0 });
    const rows = await Promise.all([ids.cajaManana, ids.bidonTarde, ids.cashChorrillos].map(deliveryRow));
    expect(rows.map((row) => [row.status, row.assignedDriverId, row.routePosition])).toEqual([
      ["scheduled", driverId, 1],
      ["scheduled", driverId, 2],
      ["scheduled", driverId, 3],
    ]);
    // From pending the move passes through preparing, and says so.
    expect(rows[2]!.statusHistory.map((entry) => entry.status)).toEqual(["pending", "preparing", "scheduled"]);
    expect((await auditOf([ids.cajaManana, ids.bidonTarde, ids.cashChorrillos])).filter((row) => row.action === "delivery.assign")).toHaveLength(3);
  });

  it("prints the driver's route sheet in order, and moves a stop up once however often the form is sent", async () => {
    const [sheet] = await loadRouteSheets(test.db, { date: day, driverId });
    expect(sheet!.stops.map((stop) => stop.id)).toEqual([ids.cajaManana, ids.bidonTarde, ids.cashChorrillos]);
    expect(sheet!.stops[1]!.bidones).toEqual({ full: 3, empty: 3 });
    expect(sheet!.stops[1]!.items).toEqual([{ title: "Bidón retornable hogar 20 L", variantTitle: "Recarga (canje de envase)", quantity: 3 }]);
    expect(sheet!.stops[2]!.amountToCollectCents).toBeGreaterThan(0);
    expect(sheet!.stops[2]!.customerPhone).toBe("987654321");

    expect(await moveRouteStop(test.db, actor, { deliveryId: ids.cashChorrillos, direction: "up", fromPosition: 3, now })).toBe("moved");
    expect(await moveRouteStop(test.db, actor, { deliveryId: ids.cashChorrillos, direction: "up", fromPosition: 3, now })).toBe("unchanged");
    expect((await loadRouteSheets(test.db, { date: day, driverId }))[0]!.stops.map((stop) => stop.id)).toEqual([
      ids.cajaManana,
      ids.cashChorrillos,
      ids.bidonTarde,
    ]);
    expect(await moveRouteStop(test.db, actor, { deliveryId: ids.cajaManana, direction: "down", fromPosition: 1, now })).toBe("moved");
    expect((await loadRouteSheets(test.db, { date: day, driverId }))[0]!.stops.map((stop) => stop.id)).toEqual([
      ids.cashChorrillos,
      ids.cajaManana,
      ids.bidonTarde,
    ]);
    expect(await moveRouteStop(test.db, actor, { deliveryId: ids.bidonTarde, direction: "down", fromPosition: 3, now })).toBe("unchanged");
    const moves = (await auditOf([ids.cajaManana, ids.bidonTarde, ids.cashChorrillos])).filter((row) => row.action === "delivery.move_stop");
    expect(moves.map((row) => [row.entityId, row.before, row.after])).toEqual([
      [ids.cashChorrillos, { routePosition: 3 }, { routePosition: 2 }],
      [ids.bidonTarde, { routePosition: 2 }, { routePosition: 3 }],
      [ids.cashChorrillos, { routePosition: 2 }, { routePosition: 1 }],
      [ids.cajaManana, { routePosition: 1 }, { routePosition: 2 }],
    ]);
  });

  it("refuses a reschedule to a day a district is not served, or to a past date, and changes nothing", async () => {
    const before = await Promise.all([ids.cajaManana, ids.cashChorrillos].map(deliveryRow));
    await expect(
      rescheduleDeliveries(test.db, actor, { ids: [ids.cajaManana, ids.cashChorrillos], date: friday, deliveryWindow: "tarde", now, siteUrl }),
    ).rejects.toThrow(/Chorrillos no recibe entregas/);
    await expect(rescheduleDeliveries(test.db, actor, { ids: [ids.cajaManana], date: "2027-05-31", deliveryWindow: "tarde", now, siteUrl })).rejects.toThrow(
      /anticipación/,
    );
    await expect(rescheduleDeliveries(test.db, actor, { ids: [ids.cajaManana], date: friday, deliveryWindow: "noche", now, siteUrl })).rejects.toThrow(
      /horario/,
    );
    expect(await Promise.all([ids.cajaManana, ids.cashChorrillos].map(deliveryRow))).toEqual(before);
  });

  it("refuses a reschedule to a closed day or to a window without room, and changes nothing", async () => {
    const before = await Promise.all([ids.cajaManana, ids.bidonTarde].map(deliveryRow));
    expect(await addClosedDay(test.db, actor, { date: "2027-06-11", kind: "cierre", name: "Inventario" })).toEqual({ ok: true });
    await expect(rescheduleDeliveries(test.db, actor, { ids: [ids.cajaManana], date: "2027-06-11", deliveryWindow: "tarde", now, siteUrl })).rejects.toThrow(
      /no hay entregas \(Inventario\)/,
    );
    // One place left on Friday afternoon: two deliveries do not fit, and neither moves.
    expect(await setDefaultCapacities(test.db, actor, [{ dayNumber: 5, window: "tarde", capacity: 1 }])).toEqual({ ok: true });
    await expect(
      rescheduleDeliveries(test.db, actor, { ids: [ids.cajaManana, ids.bidonTarde], date: friday, deliveryWindow: "tarde", now, siteUrl }),
    ).rejects.toThrow(/No quedan cupos/);
    expect(await Promise.all([ids.cajaManana, ids.bidonTarde].map(deliveryRow))).toEqual(before);
    expect(await setDefaultCapacities(test.db, actor, [{ dayNumber: 5, window: "tarde", capacity: 120 }])).toEqual({ ok: true });
  });

  it("reschedules to another allowed day once, off the driver's route, and e-mails each customer once", async () => {
    const moved = [ids.cajaManana, ids.bidonTarde];
    expect(await rescheduleDeliveries(test.db, actor, { ids: moved, date: friday, deliveryWindow: "tarde", now, siteUrl })).toEqual({
      changed: 2,
      unchanged: 0,
    });
    expect(await rescheduleDeliveries(test.db, actor, { ids: moved, date: friday, deliveryWindow: "tarde", now, siteUrl })).toEqual({
      changed: 0,
      unchanged: 2,
    });
    for (const id of moved) {
      const row = await deliveryRow(id);
      expect([row.status, row.deliveryDate, row.deliveryWindow, row.assignedDriverId, row.routePosition]).toEqual(["scheduled", friday, "tarde", null, null]);
      expect(row.statusHistory.slice(-2).map((entry) => [entry.status, entry.actor])).toEqual([
        ["rescheduled", DEMO_OPERACIONES.email],
        ["scheduled", DEMO_OPERACIONES.email],
      ]);
    }
    const emails = await test.db
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, "delivery-rescheduled"), like(outboxEmails.dedupeKey, "delivery-rescheduled:%")));
    expect(emails).toHaveLength(2);
    expect(emails.every((email) => email.subject.startsWith("Nueva fecha de entrega") && email.text.includes("viernes, 4 de junio de 2027"))).toBe(true);
    expect((await auditOf(moved)).filter((row) => row.action === "delivery.reschedule")).toHaveLength(2);
    expect((await loadDispatchDay(test.db, day)).total).toBe(1);
    expect(
      (await loadDispatchDay(test.db, friday)).groups.find((group) => group.districtName === "Miraflores" && group.deliveryWindow === "tarde")!.deliveries,
    ).toHaveLength(2);
  });
});
