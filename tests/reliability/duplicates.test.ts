import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { successfulCulqiCharges, type CulqiEvent } from "../support/culqi-mock";
import { expectShopInvariants } from "../support/invariants";
import { classifyOrder, orderShapes } from "../support/order-outcomes";
import { checkoutBody, postCheckout, readBooks, culqiShopForFile } from "../support/shop-process";

const WEBHOOK_AUTH = "culqi:webhook-secreto";

const paymentIdOf = (paymentPath: string) => paymentPath.split("/").at(-1)!;

/**
 * Double clicks, impatient reloads and a provider that repeats itself: the same checkout posted
 * ten times at once, the same card token posted ten times at once, and Culqi's webhooks delivered
 * ten times each and out of order. One order, one charge, one invoice, one email.
 */
describe("the same request many times at once", () => {
  const shop = culqiShopForFile(WEBHOOK_AUTH);

  const postToken = (paymentPath: string, token: string) =>
    fetch(`${shop.baseURL()}${paymentPath}`, { method: "POST", headers: { Origin: shop.baseURL() }, body: new URLSearchParams({ token }), redirect: "manual" });
  const postWebhook = (event: CulqiEvent) =>
    fetch(`${shop.baseURL()}/api/pagos/culqi/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Basic ${Buffer.from(WEBHOOK_AUTH).toString("base64")}` },
      body: JSON.stringify(event),
    });

  it("makes one order and one charge from a checkout and a card token each submitted ten times at once", async () => {
    const body = checkoutBody({ correo: "doble@rel.example.pe", checkoutKey: randomUUID() });
    const checkouts = await Promise.all(Array.from({ length: 10 }, () => postCheckout(shop.baseURL(), body)));
    expect(checkouts.map((response) => response.status)).toEqual(Array(10).fill(302));
    const paymentPaths = new Set(checkouts.map((response) => response.headers.get("location")!));
    expect(paymentPaths.size).toBe(1);
    const [paymentPath] = [...paymentPaths];

    const token = await shop.culqi.tokenize("4111111111111111", "doble@rel.example.pe");
    const payments = await Promise.all(Array.from({ length: 10 }, () => postToken(paymentPath!, token)));
    // Every click lands on the receipt: the payment went through, whichever click made it.
    expect(
      payments.map((response) => response.headers.get("location") ?? `HTTP ${response.status}`).filter((location) => !location.startsWith("/success")),
    ).toEqual([]);
    expect(successfulCulqiCharges(shop.culqi).filter((charge) => charge.paymentId === paymentIdOf(paymentPath!))).toHaveLength(1);

    await readBooks(shop, shop.database, async (db) => {
      expect((await orderShapes(db, { emailLike: "doble@rel.example.pe" })).map(classifyOrder)).toEqual(["paid"]);
      await expectShopInvariants(db, { providerCharges: successfulCulqiCharges(shop.culqi) });
    });
  });

  it("applies Culqi's webhooks once when each arrives ten times, out of order", async () => {
    // Three customers pay with cash codes: the checkout made a Culqi order for each, which they
    // confirm in Culqi's checkout and pay at an agent.
    const events: CulqiEvent[] = [];
    for (const index of [1, 2, 3]) {
      const checkout = await postCheckout(shop.baseURL(), checkoutBody({ correo: `webhook${index}@rel.example.pe` }));
      const paymentId = paymentIdOf(checkout.headers.get("location")!);
      const culqiOrder = [...shop.culqi.orders.values()].find((order) => (order.metadata as Record<string, string>).payment_id === paymentId)!;
      await shop.culqi.confirmOrder(String(culqiOrder.id));
      events.push(shop.culqi.payOrder(String(culqiOrder.id)));
    }
    // A fourth pays by card, and Culqi's answer never reaches the shop: only the webhook tells.
    const cardCheckout = await postCheckout(shop.baseURL(), checkoutBody({ correo: "webhook4@rel.example.pe" }));
    const token = await shop.culqi.tokenize("5111111111111118", "webhook4@rel.example.pe");
    shop.culqi.delayNextCharge(20_000);
    void postToken(cardCheckout.headers.get("location")!, token).catch(() => {});
    const charged = () => shop.culqi.events.find((event) => event.type === "charge.creation.succeeded" && event.data.includes(token));
    const deadline = Date.now() + 10_000;
    while (!charged() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    events.push(charged()!);

    // Each event ten times, newest first, all at once.
    const deliveries = Array.from({ length: 10 }, () => [...events].reverse()).flat();
    const statuses = await Promise.all(deliveries.map((event) => postWebhook(event).then((response) => response.status)));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    await readBooks(shop, shop.database, async (db) => {
      expect((await orderShapes(db, { emailLike: "webhook%@rel.example.pe" })).map(classifyOrder)).toEqual(["paid", "paid", "paid", "paid"]);
      await expectShopInvariants(db, { providerCharges: successfulCulqiCharges(shop.culqi) });
    });
  });
});
