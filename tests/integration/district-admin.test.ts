import { asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { listServedDistricts } from "@server/content/index.server";
import { deliveries, deliveryCapacityOverrides, districtDeliveryDays, districts, staffActions, users } from "@server/db/schema";
import { openDatabase, type DatabaseHandle } from "@server/db/client";
import { overrideReadCacheTtl } from "@server/db/read-cache";
import { DEMO_OPERACIONES, DEMO_REPARTIDOR } from "@server/db/seed/demo-accounts";
import {
  datesWithRoom,
  deliveryDateRefusal,
  listDistrictsForStaff,
  listDriverStops,
  loadDistrictForStaff,
  offeredDeliverySlots,
  setDistrictCapacities,
  updateDistrictSettings,
} from "@server/deliveries/index.server";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Tuesday 2026-11-24, 10:00 in Lima: with the shop's 18:00 cut-off, Wednesday the 25th is still bookable.
const now = new Date("2026-11-24T15:00:00Z");
const TODAY = "2026-11-24";
const WEDNESDAY = "2026-11-25";

/**
 * Issue 11, /admin/distritos (decision 0053): each district's settings, its own cut-off applied
 * wherever the cut-off is, an unserved district refused at checkout, and every change audited once.
 * Districts of the test's own (unique ubigeos), so no demo delivery or date changes the counts.
 */
describe("districts staff keep at /admin/distritos", () => {
  let test: TestDatabase;
  let actor: StaffActor;
  let miraflores: number;

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [staff] = await test.db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    actor = { id: staff!.id, email: staff!.email, role: "operaciones", clientAddress: "127.0.0.1" };
    miraflores = (await test.db.select({ id: districts.id }).from(districts).where(eq(districts.name, "Miraflores")))[0]!.id;
  });
  const extraHandles: DatabaseHandle[] = [];
  const openExtra = async (url: string) => {
    const handle = await openDatabase({ kind: "postgres", url });
    extraHandles.push(handle);
    return handle;
  };
  afterAll(async () => {
    for (const handle of extraHandles) await handle.close();
    await test.close();
  });

  /** A served district of the test's own, delivered on the given weekdays. */
  async function newDistrict(name: string, dayNumbers: number[]): Promise<number> {
    const [row] = await test.db
      .insert(districts)
      .values({ ubigeo: `99${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`, name, province: "Lima", served: true })
      .returning({ id: districts.id });
    await test.db.insert(districtDeliveryDays).values(dayNumbers.map((dayNumber) => ({ districtId: row!.id, dayNumber })));
    return row!.id;
  }
  const settings = (overrides: Partial<{ served: boolean; dayNumbers: number[]; cutoffTime: string; staffNotes: string }> = {}) => ({
    served: true,
    dayNumbers: [1, 3, 5],
    cutoffTime: "",
    staffNotes: "",
    ...overrides,
  });
  const auditOf = (entityId: string) =>
    test.db
      .select({ action: staffActions.action, before: staffActions.before, after: staffActions.after })
      .from(staffActions)
      .where(like(staffActions.entityId, entityId))
      .orderBy(asc(staffActions.id));

  it("refuses bad values with Spanish messages per field and writes nothing; an unknown id is not found", async () => {
    const id = await newDistrict("Distrito Validación", [3]);
    const refusals = [
      [settings({ dayNumbers: [] }), { dayNumbers: "Un distrito atendido necesita al menos un día de reparto" }],
      [settings({ cutoffTime: "25:00" }), { cutoffTime: "Escribe la hora como HH:MM (por ejemplo 14:00) o déjala vacía" }],
      [settings({ dayNumbers: [8] }), { dayNumbers: "Elige días de lunes a domingo" }],
      [settings({ staffNotes: "x".repeat(501) }), { staffNotes: expect.any(String) }],
    ] as const;
    for (const [input, fieldErrors] of refusals) {
      expect(await updateDistrictSettings(test.db, actor, id, input, { today: TODAY })).toEqual({ ok: false, reason: "invalid", fieldErrors });
    }
    expect(await setDistrictCapacities(test.db, actor, id, [{ dayNumber: 3, window: "manana", capacity: -1 }])).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { "capacity-3-manana": "Escribe un número entero de 0 a 9999, o déjalo vacío" },
    });
    expect(await updateDistrictSettings(test.db, actor, 2_000_000, settings(), { today: TODAY })).toEqual({ ok: false, reason: "not_found" });
    expect(await loadDistrictForStaff(test.db, 2_000_000, TODAY)).toBeNull();
    expect(await auditOf(`${id}%`)).toEqual([]);
    expect((await loadDistrictForStaff(test.db, id, TODAY))!).toMatchObject({ served: true, dayNumbers: [3], cutoffTime: null, staffNotes: "" });
  });

  it("holds a district's deliveries to its own cut-off: offered dates, placing, and the dates a subscription may move to", async () => {
    const early = await newDistrict("Distrito Corte Temprano", [3, 5]);
    const input = checkoutInput(now, { districtId: early, correo: "corte-propio@example.pe" });
    const offered = () =>
      offeredDeliverySlots(test.db, {
        now,
        districts: [
          { id: early, dayNumbers: [3, 5] },
          { id: miraflores, dayNumbers: [1, 3, 5] },
        ],
      });
    expect((await offered())[early]!.map((day) => day.date).slice(0, 2)).toEqual([WEDNESDAY, "2026-11-27"]);

    // 10:00 in Lima, and this district closes its orders for tomorrow at 09:30.
    expect(await updateDistrictSettings(test.db, actor, early, settings({ dayNumbers: [3, 5], cutoffTime: "09:30" }), { today: TODAY })).toEqual({
      ok: true,
      changed: true,
    });
    const after = await offered();
    expect(after[early]!.map((day) => day.date).slice(0, 2)).toEqual(["2026-11-27", "2026-12-02"]);
    // Miraflores keeps the shop's 18:00: Wednesday is still offered there.
    expect(after[miraflores]!.map((day) => day.date)[0]).toBe(WEDNESDAY);
    expect(await placeOrder(test.db, input, { now, provider: "sandbox" })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { fecha: "Los pedidos para mañana se reciben hasta las 09:30. Elige otra fecha." },
    });
    expect(await deliveryDateRefusal(test.db, { districtId: early, date: WEDNESDAY, now })).toBe(
      "Los pedidos para mañana se reciben hasta las 09:30. Elige otra fecha.",
    );
    expect(await deliveryDateRefusal(test.db, { districtId: miraflores, date: WEDNESDAY, now })).toBeNull();
    expect(await datesWithRoom(test.db, { districtId: early, window: "manana", dates: [WEDNESDAY, "2026-11-27"], now })).toEqual(["2026-11-27"]);

    // A later own cut-off than the shop's: at 19:00 this district still takes orders for tomorrow.
    const seven = new Date("2026-11-25T00:00:00Z");
    await updateDistrictSettings(test.db, actor, early, settings({ dayNumbers: [3, 5], cutoffTime: "20:00" }), { today: TODAY });
    expect(await deliveryDateRefusal(test.db, { districtId: early, date: WEDNESDAY, now: seven })).toBeNull();
    expect(await deliveryDateRefusal(test.db, { districtId: miraflores, date: WEDNESDAY, now: seven })).toMatch(/hasta las 18:00/);

    // Emptied, the district follows the shop's cut-off again.
    await updateDistrictSettings(test.db, actor, early, settings({ dayNumbers: [3, 5] }), { today: TODAY });
    expect(await placeOrder(test.db, input, { now, provider: "sandbox" })).toMatchObject({ ok: true });
  });

  it("takes an unserved district out of the served list at once and refuses it at checkout; refuses to unserve one with open deliveries", async () => {
    const closing = await newDistrict("Distrito Que Cierra", [3]);
    const busy = await newDistrict("Distrito Con Pedidos", [3]);
    // The footer's and the checkout's list is a cached read: kept a minute here, it must still follow at once.
    overrideReadCacheTtl(60_000);
    try {
      expect((await listServedDistricts(test.db)).map((district) => district.id)).toEqual(expect.arrayContaining([closing, busy]));
      expect(await updateDistrictSettings(test.db, actor, closing, settings({ served: false, dayNumbers: [3] }), { today: TODAY })).toEqual({
        ok: true,
        changed: true,
      });
      expect((await listServedDistricts(test.db)).map((district) => district.id)).not.toContain(closing);
    } finally {
      overrideReadCacheTtl(null);
    }
    expect(await placeOrder(test.db, checkoutInput(now, { districtId: closing, correo: "cerrado@example.pe" }), { now, provider: "sandbox" })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { districtId: "Por ahora no repartimos en ese distrito. Elige uno de la lista." },
    });

    expect(await placeOrder(test.db, checkoutInput(now, { districtId: busy, correo: "pendiente@example.pe" }), { now, provider: "sandbox" })).toMatchObject({
      ok: true,
    });
    expect(await updateDistrictSettings(test.db, actor, busy, settings({ served: false, dayNumbers: [3] }), { today: TODAY })).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: {
        served: "Distrito Con Pedidos todavía tiene 1 entrega pendiente. Reprográmalas o cancélalas antes de dejar de atender el distrito; no se cambió nada.",
      },
    });
    const listed = (await listDistrictsForStaff(test.db, TODAY)).find((district) => district.id === busy);
    expect(listed).toMatchObject({ served: true, openDeliveries: 1, liveSubscriptions: 0 });
    // Once the delivery's date is past, nothing is booked any more and the district may close.
    expect(await updateDistrictSettings(test.db, actor, busy, settings({ served: false, dayNumbers: [3] }), { today: "2026-11-26" })).toMatchObject({
      ok: true,
    });
  });

  it("never leaves an order in a district unserved meanwhile: a checkout and the change take turns", async () => {
    const racing = await newDistrict("Distrito En Carrera", [3]);
    // On PostgreSQL the checkouts come through pools of their own, as other server processes would.
    const pools = [test.db];
    if (test.env.DATABASE_URL) for (let index = 0; index < 2; index += 1) pools.push((await openExtra(test.env.DATABASE_URL)).db);
    const orders = Array.from({ length: 6 }, (_, index) =>
      placeOrder(pools[index % pools.length]!, checkoutInput(now, { districtId: racing, correo: `carrera-distrito${index}@example.pe` }), {
        now,
        provider: "sandbox",
      }),
    );
    const change = updateDistrictSettings(test.db, actor, racing, settings({ served: false, dayNumbers: [3] }), { today: TODAY });
    const [changed, ...placed] = await Promise.all([change, ...orders]);
    const accepted = placed.filter((result) => result.ok).length;
    const [row] = await listDistrictsForStaff(test.db, TODAY).then((rows) => rows.filter((district) => district.id === racing));
    // Either the change came first (every order refused) or it saw the orders and refused itself.
    if (changed.ok) {
      expect(accepted).toBe(0);
      expect(row).toMatchObject({ served: false, openDeliveries: 0 });
    } else {
      expect(accepted).toBeGreaterThan(0);
      expect(row).toMatchObject({ served: true, openDeliveries: accepted });
    }
  });

  it("audits each change once: a repeated save changes, audits and invalidates nothing", async () => {
    const id = await newDistrict("Distrito Auditado", [2]);
    const input = settings({ dayNumbers: [4, 2], cutoffTime: "14:00", staffNotes: "Portería cierra a las 17:00.\nTocar el timbre 2." });
    expect(await updateDistrictSettings(test.db, actor, id, input, { today: TODAY })).toEqual({ ok: true, changed: true });
    expect(await updateDistrictSettings(test.db, actor, id, input, { today: TODAY })).toEqual({ ok: true, changed: false });
    expect(await auditOf(String(id))).toEqual([
      {
        action: "district.update",
        before: { served: true, dayNumbers: [2], cutoffTime: null, staffNotes: null, doorPayment: true },
        after: { served: true, dayNumbers: [2, 4], cutoffTime: "14:00", staffNotes: "Portería cierra a las 17:00.\nTocar el timbre 2.", doorPayment: true },
      },
    ]);

    const figures = [
      { dayNumber: 2, window: "manana", capacity: 8 },
      { dayNumber: 2, window: "tarde", capacity: null },
    ];
    expect(await setDistrictCapacities(test.db, actor, id, figures)).toEqual({ ok: true, changed: true });
    expect(await setDistrictCapacities(test.db, actor, id, figures)).toEqual({ ok: true, changed: false });
    expect(await setDistrictCapacities(test.db, actor, id, [{ dayNumber: 2, window: "manana", capacity: null }])).toEqual({ ok: true, changed: true });
    expect(await auditOf(`${id}:%`)).toEqual([
      { action: "district.capacity", before: { capacity: null }, after: { capacity: 8 } },
      { action: "district.capacity", before: { capacity: 8 }, after: { capacity: null } },
    ]);
    expect(await test.db.select().from(deliveryCapacityOverrides).where(eq(deliveryCapacityOverrides.districtId, id))).toEqual([]);
    expect((await loadDistrictForStaff(test.db, id, TODAY))!).toMatchObject({ dayNumbers: [2, 4], cutoffTime: "14:00" });

    // The driver reads the district's notes on each of its stops.
    const placed = await placeOrder(test.db, checkoutInput(now, { districtId: id, diaHabil: 4, fecha: "2026-11-26", correo: "notas@example.pe" }), {
      now,
      provider: "sandbox",
    });
    if (!placed.ok) throw new Error("not placed");
    const [driver] = await test.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    await test.db.update(deliveries).set({ assignedDriverId: driver!.id }).where(eq(deliveries.orderId, placed.orderId));
    const stops = await listDriverStops(test.db, driver!.id, new Date("2026-11-26T17:00:00Z"));
    expect(stops.find((stop) => stop.orderId === placed.orderId)).toMatchObject({
      districtNotes: "Portería cierra a las 17:00.\nTocar el timbre 2.",
    });
  });
});
