import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffActor } from "@server/audit/index.server";
import { placeOrder } from "@server/checkout/index.server";
import { complaintDeadline } from "@server/complaints/index.server";
import { deliveryClosedDays, staffActions, users } from "@server/db/schema";
import { migrationsFolder } from "@server/db/project-files";
import { DEMO_OPERACIONES } from "@server/db/seed/demo-accounts";
import { inTransaction } from "@server/db/transaction";
import {
  addClosedDay,
  claimNextSlotFrom,
  loadCalendarForStaff,
  offeredDeliverySlots,
  removeClosedDay,
  restoreNationalHoliday,
} from "@server/deliveries/index.server";
import { nationalHolidaysOf } from "@core/peru-holidays";
import { checkoutInput } from "../support/checkout-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/** `time` on Lima's clock (UTC−5 all year) on `date`. */
const lima = (date: string, time: string) => new Date(`${date}T${time}:00-05:00`);
const MIRAFLORES = 22; // served Monday, Wednesday and Friday

/**
 * Issue 23 (decision 0070): Peru's national holidays are worked out for every year, so the checkout
 * refuses them in years nobody typed in; staff still close their own days, add a holiday a new law
 * declares, and open a national holiday. Every clock here is injected: the tests never read the
 * real one.
 */
describe("national holidays of every year", () => {
  let test: TestDatabase;
  let actor: StaffActor;
  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [staff] = await test.db.select().from(users).where(eq(users.email, DEMO_OPERACIONES.email));
    actor = { id: staff!.id, email: staff!.email, role: "operaciones", clientAddress: "127.0.0.1" };
  });
  afterAll(async () => {
    await test.close();
  });

  it("refuses a delivery on Año Nuevo 2029 with the checkout's holiday message, and takes the next Wednesday", async () => {
    const now = lima("2028-12-29", "10:00"); // a Friday, two business days before
    const newYear = await placeOrder(test.db, checkoutInput(now, { diaHabil: 1, fecha: "2029-01-01", correo: "anio-nuevo@example.pe" }), {
      now,
      provider: "sandbox",
    });
    expect(newYear).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { fecha: "No repartimos el lunes, 1 de enero (Año Nuevo). Elige otra fecha." },
    });
    // The fixture's own date at that clock is the first Wednesday offered, 3 January 2029.
    const next = checkoutInput(now, { correo: "anio-nuevo@example.pe" });
    expect(next.fecha).toBe("2029-01-03");
    expect(await placeOrder(test.db, next, { now, provider: "sandbox" })).toMatchObject({ ok: true });
  });

  it("never offers Semana Santa or Fiestas Patrias of a year far ahead", async () => {
    const offeredAt = async (now: Date) =>
      (await offeredDeliverySlots(test.db, { districts: [{ id: MIRAFLORES, dayNumbers: [1, 3, 5] }], now }))[MIRAFLORES]!.map((day) => day.date);
    // 2031: Easter on 13 April, so Viernes Santo is Friday 11 April.
    const holyWeek = await offeredAt(lima("2031-04-01", "10:00"));
    expect(holyWeek).toContain("2031-04-09");
    expect(holyWeek).not.toContain("2031-04-11");
    // 2033: 28 July is a Thursday, 29 July a Friday.
    const july = await offeredAt(lima("2033-07-20", "10:00"));
    expect(july).toContain("2033-07-27");
    expect(july).not.toContain("2033-07-29");
  });

  it("moves a subscription's delivery off a national holiday to the district's next day, unless staff opened it", async () => {
    const claim = () =>
      inTransaction(test.db, (tx) => claimNextSlotFrom(tx, { districtId: MIRAFLORES, window: "manana", wantedDate: "2030-12-25", districtDays: [1, 3, 5] }));
    // Wednesday 25 December 2030 is Navidad: the next Miraflores day is Friday the 27th.
    expect(await claim()).toEqual({ date: "2030-12-27" });
    expect(await removeClosedDay(test.db, actor, "2030-12-25")).toEqual({ ok: true });
    expect(await claim()).toEqual({ date: "2030-12-25" });
    expect(await restoreNationalHoliday(test.db, actor, "2030-12-25")).toEqual({ ok: true });
    expect(await claim()).toEqual({ date: "2030-12-27" });
  });

  it("shows staff the next twelve months of holidays whatever the year, and keeps their own changes", async () => {
    const today = "2029-03-10";
    const before = await loadCalendarForStaff(test.db, today);
    expect(before.until).toBe("2030-03-09");
    const national = before.closedDays.filter((day) => day.national).map((day) => day.date);
    // Easter 2029 is 1 April: Jueves and Viernes Santo on 29 and 30 March; then every holiday to Año Nuevo 2030.
    expect(national).toEqual(
      [...nationalHolidaysOf(2029), ...nationalHolidaysOf(2030)].map((holiday) => holiday.date).filter((date) => date >= today && date <= "2030-03-09"),
    );
    expect(national[0]).toBe("2029-03-29");
    expect(national.at(-1)).toBe("2030-01-01");

    // A one-off holiday by law, a closure of the shop's own, and a national holiday opened.
    expect(await addClosedDay(test.db, actor, { date: "2029-05-02", kind: "feriado", name: "Feriado por ley" })).toEqual({ ok: true });
    expect(await addClosedDay(test.db, actor, { date: "2029-06-15", kind: "cierre", name: "Inventario" })).toEqual({ ok: true });
    expect(await addClosedDay(test.db, actor, { date: "2029-07-28", kind: "cierre", name: "Otra cosa" })).toEqual({
      ok: false,
      field: "date",
      message: "Esa fecha ya está cerrada (Fiestas Patrias)",
    });
    expect(await removeClosedDay(test.db, actor, "2029-07-23")).toEqual({ ok: true });
    expect(await removeClosedDay(test.db, actor, "2029-07-23")).toEqual({ ok: true }); // a double click changes nothing
    const after = await loadCalendarForStaff(test.db, today);
    expect(after.closedDays.filter((day) => !day.national)).toEqual([
      { date: "2029-05-02", kind: "feriado", name: "Feriado por ley", national: false },
      { date: "2029-06-15", kind: "cierre", name: "Inventario", national: false },
    ]);
    expect(after.closedDays.map((day) => day.date)).not.toContain("2029-07-23");
    expect(after.openHolidays).toEqual([{ date: "2029-07-23", name: "Día de la Fuerza Aérea del Perú" }]);

    // The checkout follows each: the law's holiday is refused, the opened holiday is offered.
    const now = lima("2029-04-30", "10:00");
    expect(await placeOrder(test.db, checkoutInput(now, { fecha: "2029-05-02", correo: "ley@example.pe" }), { now, provider: "sandbox" })).toMatchObject({
      ok: false,
      fieldErrors: { fecha: "No repartimos el miércoles, 2 de mayo (Feriado por ley). Elige otra fecha." },
    });
    const july = lima("2029-07-20", "10:00");
    expect(
      await placeOrder(test.db, checkoutInput(july, { diaHabil: 1, fecha: "2029-07-23", correo: "abierto@example.pe" }), { now: july, provider: "sandbox" }),
    ).toMatchObject({ ok: true });

    const audit = await test.db
      .select({ action: staffActions.action, entityId: staffActions.entityId })
      .from(staffActions)
      .where(sql`${staffActions.entityId} like '2029-%'`)
      .orderBy(asc(staffActions.createdAt));
    expect(audit).toEqual([
      { action: "calendar.closed_day.add", entityId: "2029-05-02" },
      { action: "calendar.closed_day.add", entityId: "2029-06-15" },
      { action: "calendar.closed_day.remove", entityId: "2029-07-23" },
    ]);
  });

  it("counts the national holidays of any year in the Libro de Reclamaciones' 15 business days", async () => {
    // Filed Monday 20 July 2037: 23, 28 and 29 July and 6 August are holidays.
    const filedOn = "2037-07-20";
    const { deadline } = await complaintDeadline(test.db, filedOn, { now: lima(filedOn, "10:00") });
    expect(deadline).toBe("2037-08-14");
  });

  it("removes by migration the 2026–2027 holidays the seed wrote, keeping every row staff added or opened", async () => {
    const empty = await createTestDatabase("empty");
    try {
      const seeded = [2026, 2027].flatMap((year) =>
        nationalHolidaysOf(year).map((holiday) => ({ closedOn: holiday.date, kind: "feriado", name: holiday.name })),
      );
      await empty.db.insert(deliveryClosedDays).values([
        // What the old seed wrote, less the one staff removed (Día de la Fuerza Aérea 2026)…
        ...seeded.filter((row) => row.closedOn !== "2026-07-23"),
        // …and what staff added.
        { closedOn: "2026-12-24", kind: "cierre", name: "Nochebuena" },
        { closedOn: "2027-05-03", kind: "feriado", name: "Feriado por ley" },
      ]);
      const file = (await readdir(migrationsFolder)).find((name) => name.endsWith("_national-holidays-worked-out.sql"));
      const migration = await readFile(path.join(migrationsFolder, file!), "utf8");
      await empty.db.execute(sql.raw(migration));
      const expected = [
        { closedOn: "2026-07-23", kind: "abierto", name: "Día de la Fuerza Aérea del Perú" },
        { closedOn: "2026-12-24", kind: "cierre", name: "Nochebuena" },
        { closedOn: "2027-05-03", kind: "feriado", name: "Feriado por ley" },
      ];
      const rows = () =>
        empty.db
          .select({ closedOn: deliveryClosedDays.closedOn, kind: deliveryClosedDays.kind, name: deliveryClosedDays.name })
          .from(deliveryClosedDays)
          .orderBy(asc(deliveryClosedDays.closedOn));
      expect(await rows()).toEqual(expected);
      // Run again (or on a database never seeded): nothing changes.
      await empty.db.execute(sql.raw(migration));
      expect(await rows()).toEqual(expected);
    } finally {
      await empty.close();
    }
  });
});
