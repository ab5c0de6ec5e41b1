import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missedDeliveryDates, offeredDeliverySlots } from "@server/deliveries/index.server";
import { deliveryCapacityOverrides, deliveryClosedDays, districts } from "@server/db/schema";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Issue 41: a date missing from the checkout explains itself. The clock is given: Sunday 30
 * November 2031, 19:00 in Lima (past the 18:00 cut-off), long after any demo delivery, so
 * nothing but this test's own calendar and capacity decides.
 */
describe("the dates the checkout does not offer, and why", () => {
  let test: TestDatabase;
  let miraflores: { id: number; dayNumbers: number[] };
  const now = new Date("2031-12-01T00:00:00Z");

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    const [row] = await test.db.select({ id: districts.id }).from(districts).where(eq(districts.name, "Miraflores"));
    // Miraflores is served on lunes, miércoles and viernes in the demo.
    miraflores = { id: row!.id, dayNumbers: [1, 3, 5] };
    await test.db.insert(deliveryClosedDays).values({ closedOn: "2031-12-03", kind: "cierre", name: "Inventario" });
    await test.db.insert(deliveryCapacityOverrides).values([
      { districtId: miraflores.id, dayNumber: 5, deliveryWindow: "manana", capacity: 0 },
      { districtId: miraflores.id, dayNumber: 5, deliveryWindow: "tarde", capacity: 0 },
    ]);
  });
  afterAll(() => test?.close());

  it("says the cut-off passed, a holiday, a closure of the shop or no room, and leaves out what is offered", async () => {
    const missed = await missedDeliveryDates(test.db, { now, districts: [miraflores], days: 12 });
    expect(missed[miraflores.id]).toEqual([
      { date: "2031-12-01", reason: "cerrado: pasó la hora de corte (18:00)" },
      { date: "2031-12-03", reason: "cerrado (Inventario)" },
      { date: "2031-12-05", reason: "sin cupos" },
      { date: "2031-12-08", reason: "feriado (Inmaculada Concepción)" },
      { date: "2031-12-12", reason: "sin cupos" },
    ]);
    // The one weekday date in those days that is not missed is the one offered.
    const offered = await offeredDeliverySlots(test.db, { now, districts: [miraflores] });
    expect(offered[miraflores.id]!.map((day) => day.date).filter((date) => date <= "2031-12-12")).toEqual(["2031-12-10"]);
  });
});
