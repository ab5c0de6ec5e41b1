import { describe, expect, it } from "vitest";
import { runDueJobs } from "@server/jobs/index.server";
import { successfulCulqiCharges } from "../support/culqi-mock";
import { expectShopInvariants } from "../support/invariants";
import { classifyOrder, orderShapes } from "../support/order-outcomes";
import { checkoutBody, postCheckout, readBooks, culqiShopForFile } from "../support/shop-process";

const WEBHOOK_AUTH = "culqi:webhook-secreto";

/**
 * Culqi failing (HTTP 500, nothing charged), losing its answer after charging, and answering
 * late while its webhook arrives first. Whatever the customer saw, each order ends paid once for a
 * charge that happened, or unpaid and then cancelled with nothing charged.
 */
describe("the payment provider failing, losing answers and answering late", () => {
  const shop = culqiShopForFile(WEBHOOK_AUTH);

  const checkout = async (email: string) => {
    const response = await postCheckout(shop.baseURL(), checkoutBody({ correo: email }));
    expect(response.status).toBe(302);
    return response.headers.get("location")!;
  };
  const pay = (paymentPath: string, token: string) =>
    fetch(`${shop.baseURL()}${paymentPath}`, { method: "POST", headers: { Origin: shop.baseURL() }, body: new URLSearchParams({ token }), redirect: "manual" });
  const webhookFor = (token: string) => {
    const event = shop.culqi.events.find((candidate) => candidate.type === "charge.creation.succeeded" && candidate.data.includes(token));
    if (!event) throw new Error(`Culqi made no charge for ${token}`);
    return fetch(`${shop.baseURL()}/api/pagos/culqi/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Basic ${Buffer.from(WEBHOOK_AUTH).toString("base64")}` },
      body: JSON.stringify(event),
    });
  };

  it("ends every order paid once or cleanly unpaid, and reconciliation cancels the abandoned ones", async () => {
    // Culqi fails: the customer is told to try again, nothing is charged, and the retry pays.
    const failing = await checkout("falla@rel.example.pe");
    shop.culqi.failNextCharges(1);
    const failed = await pay(failing, await shop.culqi.tokenize("4111111111111111", "falla@rel.example.pe"));
    expect(failed.status).toBe(502);
    expect(await failed.text()).toContain("Hubo un problema procesando tu pago. Intenta nuevamente.");
    expect((await pay(failing, await shop.culqi.tokenize("4111111111111111", "falla@rel.example.pe"))).headers.get("location")).toMatch(/^\/success/);

    // Culqi charges and the answer is lost: the customer hears of a problem, the webhook settles it.
    const lost = await checkout("perdida@rel.example.pe");
    const lostToken = await shop.culqi.tokenize("5111111111111118", "perdida@rel.example.pe");
    shop.culqi.dropNextChargeAnswer();
    expect((await pay(lost, lostToken)).status).toBe(502);
    expect((await webhookFor(lostToken)).status).toBe(200);

    // Culqi answers late, and its webhook arrives before its answer: settled once.
    const late = await checkout("tarde@rel.example.pe");
    const lateToken = await shop.culqi.tokenize("4111111111111111", "tarde@rel.example.pe");
    shop.culqi.delayNextCharge(2_000);
    const lateAnswer = pay(late, lateToken);
    const deadline = Date.now() + 10_000;
    while (!shop.culqi.events.some((event) => event.data.includes(lateToken)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await webhookFor(lateToken)).status).toBe(200);
    expect((await lateAnswer).headers.get("location")).toMatch(/^\/success/);

    // Culqi fails and the customer gives up.
    const abandoned = await checkout("abandona@rel.example.pe");
    shop.culqi.failNextCharges(1);
    expect((await pay(abandoned, await shop.culqi.tokenize("4111111111111111", "abandona@rel.example.pe"))).status).toBe(502);

    await readBooks(shop, shop.database, async (db) => {
      const byEmail = async () =>
        Object.fromEntries((await orderShapes(db, { emailLike: "%@rel.example.pe" })).map((order) => [order.orderNumber, classifyOrder(order)]));
      expect(Object.values(await byEmail())).toEqual(["paid", "paid", "paid", "unpaid"]);
      // Reconciliation: the jobs, once the abandoned order's payment window has passed.
      const report = await runDueJobs(db, { now: new Date(Date.now() + 31 * 60_000), siteUrl: "http://shop.test", transport: { send: async () => {} } });
      expect(report.failures).toEqual([]);
      expect(report.results.expiredOrders).toBe(1);
      const orders = await orderShapes(db, { emailLike: "%@rel.example.pe" });
      expect(orders.map((order) => [classifyOrder(order), order.status])).toEqual([
        ["paid", "paid"],
        ["paid", "paid"],
        ["paid", "paid"],
        ["unpaid", "cancelled"],
      ]);
      // Three charges in Culqi's books, each the one settled payment of its order.
      expect(successfulCulqiCharges(shop.culqi)).toHaveLength(3);
      await expectShopInvariants(db, { providerCharges: successfulCulqiCharges(shop.culqi) });
    });
  });
});
