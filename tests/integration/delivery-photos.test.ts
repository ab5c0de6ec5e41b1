import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "@server/checkout/index.server";
import { deliveries, deliveryPhotos, siteSettings, users } from "@server/db/schema";
import { deliveryPhotoForCustomer, deliveryPhotoMissing, deliveryPhotosOfOrder, saveDeliveryPhoto } from "@server/deliveries/index.server";
import { applySandboxAction } from "@server/order-flows/index.server";
import { checkoutInput, uniqueContact } from "../support/checkout-fixture";
import { newCustomer } from "../support/subscription-fixture";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const siteUrl = "http://shop.test";

/**
 * Issue 40: the photo of the bidones at the door is attached only by the driver whose stop it is,
 * seen only by the order's customer (and staff on the order), and required by Ajustes only for
 * contra-entrega orders above the amount set.
 */
describe("photos of the bidones at the door", () => {
  let test: TestDatabase;
  const now = new Date();
  let photo: Uint8Array;
  let driverId: string;
  let otherDriverId: string;
  let owner: { id: string; email: string };
  let stranger: { id: string; email: string };

  async function newDriver(name: string) {
    const email = `${name}-${randomUUID().slice(0, 8)}@demo.pe`;
    const id = `staff-${email}`;
    await test.db.insert(users).values({ id, name, email, emailVerified: true, firstName: name, lastName: "Reparto", role: "repartidor" });
    return id;
  }

  async function stop(input: { atDoor: boolean; userId: string | null; email: string }) {
    const placedAt = new Date(now.getTime() - 30 * 3_600_000);
    const door = input.atDoor ? { formaPago: "contra_entrega", metodoContraEntrega: "efectivo" } : {};
    const placed = await placeOrder(test.db, checkoutInput(placedAt, { correo: input.email, ...uniqueContact(), ...door }), {
      now: placedAt,
      provider: "sandbox",
      userId: input.userId,
      siteUrl,
    });
    if (!placed.ok) throw new Error("order not placed");
    if (!input.atDoor) await applySandboxAction(test.db, placed.paymentId, "approve_card", { now: placedAt, siteUrl });
    const [delivery] = await test.db
      .update(deliveries)
      .set({ assignedDriverId: driverId, status: "in_transit" })
      .where(eq(deliveries.orderId, placed.orderId))
      .returning({ id: deliveries.id });
    return { orderId: placed.orderId, deliveryId: delivery!.id };
  }

  beforeAll(async () => {
    test = await createTestDatabase();
    driverId = await newDriver("dueno");
    otherDriverId = await newDriver("otro");
    owner = await newCustomer(test.db, "foto");
    stranger = await newCustomer(test.db, "ajeno");
    photo = new Uint8Array(
      await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 120, b: 200 } } })
        .jpeg()
        .toBuffer(),
    );
  }, 120_000);
  afterAll(() => test.close());

  it("refuses a photo from the driver of another route and keeps nothing; the stop's driver attaches it once however often it is sent", async () => {
    const { orderId, deliveryId } = await stop({ atDoor: false, userId: owner.id, email: owner.email });
    const key = randomUUID();
    expect(await saveDeliveryPhoto(test.db, { driverId: otherDriverId, deliveryId, key, bytes: photo, now })).toEqual({ ok: false, reason: "not_found" });
    expect(await test.db.select().from(deliveryPhotos).where(eq(deliveryPhotos.deliveryId, deliveryId))).toEqual([]);

    expect(await saveDeliveryPhoto(test.db, { driverId, deliveryId, key, bytes: photo, now })).toEqual({ ok: true });
    expect(await saveDeliveryPhoto(test.db, { driverId, deliveryId, key, bytes: photo, now })).toEqual({ ok: true });
    // The same key from another driver is not theirs either.
    expect(await saveDeliveryPhoto(test.db, { driverId: otherDriverId, deliveryId, key, bytes: photo, now })).toEqual({ ok: false, reason: "not_found" });
    expect(await test.db.select().from(deliveryPhotos).where(eq(deliveryPhotos.deliveryId, deliveryId))).toHaveLength(1);
    // Not a photo: refused with a message, nothing kept.
    const text = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>");
    expect(await saveDeliveryPhoto(test.db, { driverId, deliveryId, key: randomUUID(), bytes: text, now })).toMatchObject({ ok: false, reason: "invalid" });

    // The order's customer sees it (re-encoded as WebP, without the camera's metadata); staff on the order too.
    const seen = await deliveryPhotoForCustomer(test.db, owner.id, deliveryId);
    expect((await sharp(seen!.bytes).metadata()).format).toBe("webp");
    expect((await deliveryPhotosOfOrder(test.db, orderId)).map((each) => each.deliveryId)).toEqual([deliveryId]);
    // Another customer and nobody signed in get what a delivery without a photo gets.
    expect(await deliveryPhotoForCustomer(test.db, stranger.id, deliveryId)).toBeNull();
    expect(await deliveryPhotoForCustomer(test.db, null, deliveryId)).toBeNull();
  });

  it("asks for the photo only on contra-entrega orders above the amount set in Ajustes, until one is attached", async () => {
    const atDoor = await stop({ atDoor: true, userId: null, email: `puerta-${randomUUID().slice(0, 8)}@prueba.pe` });
    const paid = await stop({ atDoor: false, userId: null, email: `pagado-${randomUUID().slice(0, 8)}@prueba.pe` });
    // Not set: never asked.
    await test.db.update(siteSettings).set({ deliveryPhotoRequiredAboveCents: null });
    expect(await deliveryPhotoMissing(test.db, driverId, atDoor.deliveryId)).toBe(false);
    // Set below the order's total (S/ 59.90 and shipping): asked on the door order only.
    await test.db.update(siteSettings).set({ deliveryPhotoRequiredAboveCents: 5000 });
    expect(await deliveryPhotoMissing(test.db, driverId, atDoor.deliveryId)).toBe(true);
    expect(await deliveryPhotoMissing(test.db, driverId, paid.deliveryId)).toBe(false);
    // Another driver's stop is not answered here (the confirmation refuses it as not found).
    expect(await deliveryPhotoMissing(test.db, otherDriverId, atDoor.deliveryId)).toBe(false);
    // Above the order's total: not asked.
    await test.db.update(siteSettings).set({ deliveryPhotoRequiredAboveCents: 1_000_000 });
    expect(await deliveryPhotoMissing(test.db, driverId, atDoor.deliveryId)).toBe(false);
    // Asked, then attached: no longer missing.
    await test.db.update(siteSettings).set({ deliveryPhotoRequiredAboveCents: 5000 });
    expect(await saveDeliveryPhoto(test.db, { driverId, deliveryId: atDoor.deliveryId, key: randomUUID(), bytes: photo, now })).toEqual({ ok: true });
    expect(await deliveryPhotoMissing(test.db, driverId, atDoor.deliveryId)).toBe(false);
    await test.db.update(siteSettings).set({ deliveryPhotoRequiredAboveCents: null });
  });
});
