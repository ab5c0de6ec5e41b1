import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectShopInvariants } from "../support/invariants";
import { classifyOrder, orderShapes } from "../support/order-outcomes";
import {
  checkoutBody,
  createShopDatabase,
  postCheckout,
  postSandboxAction,
  startShopProcess,
  type ShopDatabase,
  type ShopProcess,
} from "../support/shop-process";

const METRICS_TOKEN = "token-de-metricas-de-prueba-1234";
const SHUTDOWN_TIMEOUT_SECONDS = 8;
const CUSTOMERS = 24;

/**
 * Issue 27, as an operator meets the production server: what the load balancer and Prometheus
 * ask of it, what it writes to its log, and how it stops when a deploy sends SIGTERM.
 */
describe("the production server as operated", () => {
  let database: ShopDatabase;
  let server: ShopProcess | undefined;

  beforeAll(async () => {
    database = await createShopDatabase();
    server = await startShopProcess({
      database,
      env: { METRICS_TOKEN, LOG_REQUESTS: "true", SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS) },
    });
  });
  afterAll(async () => {
    await server?.kill();
    await database?.drop();
  });

  it("answers health and readiness, shows metrics only to the token's bearer, and logs each request as one JSON line without ids or personal data", async () => {
    const { baseURL } = server!;
    const health = await fetch(`${baseURL}/healthz`);
    expect([health.status, health.headers.get("cache-control"), await health.json()]).toEqual([200, "no-store", { status: "ok" }]);
    const ready = await fetch(`${baseURL}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);

    // A page whose URL carries an order's id, and the request id a proxy sent along.
    const checkout = await postCheckout(baseURL, checkoutBody({ correo: "metricas@rel.example.pe" }));
    const paymentPath = checkout.headers.get("location")!;
    const orderId = /[0-9a-f]{8}-[0-9a-f-]{27}/.exec(paymentPath)![0];
    const page = await fetch(`${baseURL}${paymentPath}`, { headers: { "X-Request-Id": "nginx-req-0001" } });
    expect(page.status).toBe(200);
    // The line is written when the answer is finished: the page is read to its end first.
    await page.text();
    expect(page.headers.get("x-request-id")).toBe("nginx-req-0001");
    expect(checkout.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    expect((await fetch(`${baseURL}/metrics`)).status).toBe(401);
    expect((await fetch(`${baseURL}/metrics`, { headers: { Authorization: "Bearer otro-token-cualquiera-123456" } })).status).toBe(401);
    const metrics = await fetch(`${baseURL}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    for (const name of ["http_request_duration_seconds_bucket", "process_resident_memory_bytes", "shop_outbox_backlog", "shop_payments_total"])
      expect(text).toContain(name);
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/checkout"[^}]*status_class="3xx"/);
    expect(text).toMatch(/shop_outbox_backlog\{outbox="whatsapp"\} \d+/);
    expect(text).not.toContain(orderId);

    const logLines = () =>
      server!
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The server's stdout reaches this process through a pipe, on its own time.
    await expect.poll(() => logLines().some((entry) => entry.requestId === "nginx-req-0001"), { timeout: 10_000 }).toBe(true);
    const lines = logLines();
    const line = lines.find((entry) => entry.requestId === "nginx-req-0001");
    expect(line).toMatchObject({ level: "info", time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), method: "GET", status: 200, role: "anonymous" });
    expect(line!.route).not.toContain(orderId);
    expect(line!.durationMs).toEqual(expect.any(Number));
    // Probes and scrapes stay out of the info-level log; nothing personal is ever in it.
    expect(lines.some((entry) => entry.route === "/healthz" || entry.route === "/metrics")).toBe(false);
    expect(server!.output()).not.toContain("metricas@rel.example.pe");
    expect(server!.output()).not.toContain(orderId);
  });

  it("on SIGTERM during a burst of checkouts, finishes what it acknowledged, leaves no half-made order and exits 0 within the limit", async () => {
    const shop = server!;
    const journeys = Array.from({ length: CUSTOMERS }, (_, index) => ({
      body: checkoutBody({ correo: `apagado${index}@rel.example.pe`, checkoutKey: randomUUID() }),
      paymentPath: undefined as string | undefined,
      confirmed: false,
    }));
    let confirmed = 0;
    let finished = 0;
    let inFlightAtSignal = 0;
    let stopped: Promise<{ code: number | null; seconds: number }> | undefined;
    const burst = journeys.map(async (journey) => {
      try {
        await journeyOf(journey);
      } finally {
        finished += 1;
      }
    });
    async function journeyOf(journey: (typeof journeys)[number]) {
      const checkout = await postCheckout(shop.baseURL, journey.body);
      if (checkout.status !== 302) return;
      journey.paymentPath = checkout.headers.get("location")!;
      const payment = await postSandboxAction(shop.baseURL, journey.paymentPath, "approve_card");
      if (payment.status === 302 && payment.headers.get("location")?.startsWith("/success")) {
        journey.confirmed = true;
        confirmed += 1;
        // A deploy stops the process once a few customers are through: the rest are mid-flight.
        if (confirmed === 4) {
          // The other customers whose journeys had not ended (this one is ending now).
          inFlightAtSignal = CUSTOMERS - finished - 1;
          const sent = performance.now();
          stopped = shop.stop().then((code) => ({ code, seconds: (performance.now() - sent) / 1000 }));
        }
      }
    }
    await Promise.allSettled(burst);
    expect(stopped, "SIGTERM was sent mid-burst").toBeDefined();
    const { code, seconds } = await stopped!;
    server = undefined;
    expect(code).toBe(0);
    expect(seconds).toBeLessThan(SHUTDOWN_TIMEOUT_SECONDS);
    expect(shop.output()).toContain("Stopped cleanly");
    // Customers were still on their way when it was sent: the signal really came mid-burst. (How many
    // of them the server still finished depends on the machine's speed: all of them, on a fast one.)
    expect(inFlightAtSignal).toBeGreaterThan(0);

    const handle = await database.open();
    try {
      const shapes = await orderShapes(handle.db, { emailLike: "apagado%@rel.example.pe" });
      const byKey = new Map(shapes.map((shape) => [shape.checkoutKey, shape]));
      expect(shapes.map(classifyOrder).filter((outcome) => outcome !== "paid" && outcome !== "unpaid")).toEqual([]);
      for (const journey of journeys) {
        const order = byKey.get(journey.body.checkoutKey);
        if (journey.paymentPath) expect(order, `${journey.body.correo} was sent to pay`).toBeDefined();
        if (journey.confirmed) expect(order && classifyOrder(order), `${journey.body.correo} was confirmed`).toBe("paid");
      }
      await expectShopInvariants(handle.db);
    } finally {
      await handle.close();
    }
  });
});
