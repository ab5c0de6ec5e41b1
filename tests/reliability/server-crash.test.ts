import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDueJobs } from "@server/jobs/index.server";
import type { MailMessage } from "@server/notifications/deliver";
import { expectShopInvariants } from "../support/invariants";
import { classifyOrder, orderShapes } from "../support/order-outcomes";
import {
  checkoutBody,
  createShopDatabase,
  postCheckout,
  postSandboxAction,
  runJobsOnce,
  startShopProcess,
  type ShopDatabase,
  type ShopProcess,
} from "../support/shop-process";

const CUSTOMERS = 50;
const emailOf = (index: number) => `caida${index}@rel.example.pe`;

interface Journey {
  body: ReturnType<typeof checkoutBody>;
  /** The payment page the server sent the customer to, once it answered the checkout. */
  paymentPath?: string;
  /** The server confirmed the payment (redirect to /success): this order must be paid after anything. */
  confirmed?: boolean;
}

/** Checkout then "Simular pago exitoso", over HTTP as the browser posts them. */
async function pay(baseURL: string, journey: Journey, onConfirmed: () => void) {
  const checkout = await postCheckout(baseURL, journey.body);
  if (checkout.status !== 302) throw new Error(`checkout answered ${checkout.status}`);
  journey.paymentPath = checkout.headers.get("location")!;
  const payment = await postSandboxAction(baseURL, journey.paymentPath, "approve_card");
  if (payment.status === 302 && payment.headers.get("location")?.startsWith("/success")) {
    journey.confirmed = true;
    onConfirmed();
  }
}

/**
 * The server is killed (SIGKILL: no shutdown, no rollback by the process) while 50 customers are
 * checking out and paying. Restarted on the same database, nothing it confirmed is lost, nothing
 * is half-made, and the customers who retry get their same order, paid once.
 */
describe("the server killed in the middle of 50 checkouts and payments", () => {
  let database: ShopDatabase;
  let server: ShopProcess | undefined;

  beforeAll(async () => {
    database = await createShopDatabase();
  });
  afterAll(async () => {
    await server?.kill();
    await database?.drop();
  });

  it("keeps every confirmed payment, leaves no half-made order, and settles retries once", async () => {
    server = await startShopProcess({ database });
    const journeys: Journey[] = Array.from({ length: CUSTOMERS }, (_, index) => ({
      body: checkoutBody({ correo: emailOf(index), checkoutKey: randomUUID() }),
    }));

    // Kill the process once a third of the customers have been confirmed: the rest are mid-flight.
    let confirmedCount = 0;
    let killed: Promise<void> | undefined;
    const firstServer = server;
    const onConfirmed = () => {
      confirmedCount += 1;
      if (confirmedCount === Math.floor(CUSTOMERS / 3)) killed = firstServer.kill();
    };
    const attempts = await Promise.allSettled(journeys.map((journey) => pay(firstServer.baseURL, journey, onConfirmed)));
    await killed;
    expect(killed, "the server was killed mid-run").toBeDefined();
    const interrupted = attempts.filter((attempt) => attempt.status === "rejected").length;
    expect(interrupted, "some customers were cut off by the crash").toBeGreaterThan(0);

    // Restarted on the same database, the server answers and the customers who were cut off try again.
    server = await startShopProcess({ database });
    const restarted = server;
    await Promise.all(
      journeys
        .filter((journey) => !journey.confirmed)
        .map(async (journey, index) => {
          // Half of them retry: resubmitting the same checkout (same key) returns the same order.
          if (index % 2 === 1) return;
          const again = await postCheckout(restarted.baseURL, journey.body);
          expect(again.status).toBe(302);
          if (journey.paymentPath) expect(again.headers.get("location")).toBe(journey.paymentPath);
          journey.paymentPath = again.headers.get("location")!;
          const payment = await postSandboxAction(restarted.baseURL, journey.paymentPath, "approve_card");
          expect(payment.headers.get("location")).toMatch(/^\/success/);
          journey.confirmed = true;
        }),
    );
    // Paying an already paid order again is refused quietly and charges nothing.
    const paidOnce = journeys.find((journey) => journey.confirmed)!;
    expect((await postSandboxAction(restarted.baseURL, paidOnce.paymentPath!, "approve_card")).status).toBe(302);

    // A scheduler's jobs pass (`npm run jobs:run`); the embedded database belongs to one process at a time.
    if (database.kind === "pglite") await restarted.stop();
    const report = await runJobsOnce(database);
    expect(report.failures).toEqual([]);
    expect(report.results).toMatchObject({ emails: { failed: 0, dead: 0 } });
    if (database.kind === "postgres") await restarted.stop();
    server = undefined;

    const handle = await database.open();
    try {
      const shapes = await orderShapes(handle.db, { emailLike: "caida%@rel.example.pe" });
      const byKey = new Map(shapes.map((shape) => [shape.checkoutKey, shape]));
      // One order per customer at most, whatever was retried.
      expect(shapes.length).toBe(byKey.size);
      expect(shapes.map(classifyOrder).filter((outcome) => outcome !== "paid" && outcome !== "unpaid")).toEqual([]);
      for (const journey of journeys) {
        const order = byKey.get(journey.body.checkoutKey);
        // What the server confirmed before or after the crash stays paid.
        if (journey.confirmed) expect(order && classifyOrder(order), `${journey.body.correo} was confirmed`).toBe("paid");
        // Any page the server answered was backed by a committed order.
        if (journey.paymentPath) expect(order, `${journey.body.correo} was sent to pay`).toBeDefined();
      }
      // A payment can commit while its answer dies with the process: paid, never confirmed to the client.
      expect(shapes.filter((shape) => classifyOrder(shape) === "paid").length).toBeGreaterThanOrEqual(journeys.filter((journey) => journey.confirmed).length);

      // The unpaid ones expire cleanly once their window has passed.
      const sent: MailMessage[] = [];
      await runDueJobs(handle.db, {
        now: new Date(Date.now() + 31 * 60_000),
        siteUrl: "http://shop.test",
        transport: { send: async (message) => void sent.push(message) },
      });
      const after = await orderShapes(handle.db, { emailLike: "caida%@rel.example.pe" });
      for (const order of after) {
        const outcome = classifyOrder(order);
        expect(outcome === "paid" || (outcome === "unpaid" && order.status === "cancelled"), `${order.orderNumber}: ${order.status}`).toBe(true);
      }
      await expectShopInvariants(handle.db);
    } finally {
      await handle.close();
    }
  });
});
