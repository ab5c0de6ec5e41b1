import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutGarantiaContext } from "@server/checkout/index.server";
import { bidonBalance } from "@server/deliveries/index.server";
import { migrationsFolder } from "@server/db/project-files";
import { bidonMovements, deliveries, deliveryProofs, orderItems, orders, users } from "@server/db/schema";
import { DEMO_CUSTOMER } from "@server/db/seed/demo-credentials";
import { garantiaCharge } from "@core/garantia";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * Issue 41: the migration that gives customers who swapped our bidones before the ledger began
 * their count from their history, run on a copy of the demo data (the seeded template: the demo
 * customer's monthly "Pack 3 recargas", her office packs of 4 and 10, all "Entregado", none
 * confirmed by the driver app).
 */
describe("bidones held before the ledger (migration 0046)", () => {
  let test: TestDatabase;
  let migration: string;
  let customer: { userId: string; email: string };

  const runMigration = () => test.db.execute(sql.raw(migration));
  const balance = async () => (await bidonBalance(test.db, customer)).balance;
  /** The demo data as a database held it before this migration: no movement for deliveries no driver confirmed. */
  const forgetBackfill = () =>
    test.db
      .delete(bidonMovements)
      .where(
        and(
          isNull(bidonMovements.sourceKey),
          sql`not exists (select 1 from ${deliveryProofs} where ${deliveryProofs.deliveryId} = ${bidonMovements.deliveryId})`,
        ),
      );

  beforeAll(async () => {
    test = await createTestDatabase("seeded");
    migration = await readFile(path.join(migrationsFolder, "0046_bidones-held-before-the-ledger.sql"), "utf8");
    const [user] = await test.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    customer = { userId: user!.id, email: user!.email };
  });
  afterAll(() => test?.close());

  it("gives the demo subscriber, from her delivered orders, the bidones she has been swapping (the seed runs it too)", async () => {
    // Her largest swap before the ledger: the office's "Pack 10 recargas".
    expect(await balance()).toBe(10);
    await forgetBackfill();
    expect(await balance()).toBe(0);
    await runMigration();
    expect(await balance()).toBe(10);
    const movements = await test.db.select().from(bidonMovements).where(eq(bidonMovements.userId, customer.userId));
    expect(movements).toHaveLength(1);
    expect(movements[0]).toMatchObject({ kind: "lent", quantity: 10 });
  });

  it("changes nothing when run again", async () => {
    const before = await test.db.select().from(bidonMovements);
    await runMigration();
    await runMigration();
    expect(await test.db.select().from(bidonMovements)).toEqual(before);
  });

  it("counts subscription and one-time orders alike, and never a delivery the driver app confirmed", async () => {
    await forgetBackfill();
    // The "Pack 10 recargas" delivery confirmed by a driver (with its own counts) is ledger history, not this one's.
    const [office] = await test.db
      .select({ id: deliveries.id })
      .from(deliveries)
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .where(and(eq(orders.userId, customer.userId), eq(orderItems.sku, "VA-BO20-R10"), eq(deliveries.status, "delivered")));
    expect(office).toBeDefined();
    await test.db
      .insert(deliveryProofs)
      .values({ deliveryId: office!.id, outcome: "delivered", receiverName: "María", fullBidonesLeft: 0, emptyBidonesCollected: 0 });
    await runMigration();
    // Then the largest swap left is the office's "Pack 4 recargas" (one-time), above her subscription's 3.
    expect(await balance()).toBe(4);
    await test.db.delete(deliveryProofs).where(eq(deliveryProofs.deliveryId, office!.id));

    // With only her subscription's deliveries, she holds its three.
    await forgetBackfill();
    const oneTimeOffice = await test.db
      .select({ id: deliveries.id })
      .from(deliveries)
      .innerJoin(orderItems, eq(orderItems.orderId, deliveries.orderId))
      .innerJoin(orders, eq(orders.id, deliveries.orderId))
      .where(and(eq(orders.userId, customer.userId), inArray(orderItems.sku, ["VA-BO20-R4", "VA-BO20-R10"])));
    for (const row of oneTimeOffice)
      await test.db
        .insert(deliveryProofs)
        .values({ deliveryId: row.id, outcome: "delivered", receiverName: "María", fullBidonesLeft: 0, emptyBidonesCollected: 0 });
    await runMigration();
    expect(await balance()).toBe(3);
  });

  it("leaves alone a customer whose ledger already holds as many, and charges no garantía for a recarga she swaps", async () => {
    const held = await balance();
    const count = (await test.db.select().from(bidonMovements)).length;
    await runMigration();
    expect(await balance()).toBe(held);
    expect(await test.db.select().from(bidonMovements)).toHaveLength(count);
    // "Repetir" on her subscription's order: one "Pack 3 recargas" at S/ 20.00 of garantía per bidón.
    const context = await checkoutGarantiaContext(test.db, customer.userId);
    expect(context.heldBidones).toBeGreaterThanOrEqual(3);
    expect(garantiaCharge([{ bidones: 3, unitCents: 2000 }], context.heldBidones)).toEqual({ units: 0, cents: 0 });
  });
});
