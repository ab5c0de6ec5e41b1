/**
 * The Culqi webhook and payment page as routes, under different environments: each case loads the
 * route modules afresh after setting the environment, since it is read once per process.
 */
import { RouterContextProvider } from "react-router";
import type * as WebhookModule from "~/routes/api/culqi-webhook";
import type * as PaymentModule from "~/routes/checkout/culqi-payment";
import { describe, expect, it } from "vitest";
import { culqiTestBed, stubEnvironmentAfresh } from "../support/culqi-test-bed";
import { expectConsoleError } from "../support/fail-on-console-error";

type WebhookRoute = typeof WebhookModule;
type PaymentRoute = typeof PaymentModule;

const origin = "http://shop.test";
const basicAuth = `Basic ${Buffer.from("culqi:s3creto").toString("base64")}`;

describe("the Culqi routes guard themselves by configuration (decision 0026)", () => {
  const bed = culqiTestBed();

  /** Fresh route modules (and a fresh environment) with the database in their request context. */
  async function load(environment: Record<string, string | undefined>) {
    stubEnvironmentAfresh(environment);
    const { dbContext } = await import("~/server/db-context.server");
    const context = new RouterContextProvider();
    context.set(dbContext, bed.db);
    const webhook: WebhookRoute = await import("~/routes/api/culqi-webhook");
    const page: PaymentRoute = await import("~/routes/checkout/culqi-payment");
    return {
      postWebhook: (body: string, headers: Record<string, string> = {}) =>
        webhook.action({
          // Culqi posts its events as JSON (payments.md A.9).
          request: new Request(`${origin}/api/pagos/culqi/webhook`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }),
          params: {},
          context,
        } as unknown as Parameters<WebhookRoute["action"]>[0]),
      page: {
        load: () =>
          page.loader({
            request: new Request(`${origin}/pago/culqi/00000000-0000-0000-0000-000000000000`),
            params: { paymentId: "00000000-0000-0000-0000-000000000000" },
            context,
          } as unknown as Parameters<PaymentRoute["loader"]>[0]),
        post: () =>
          page.action({
            request: new Request(`${origin}/pago/culqi/00000000-0000-0000-0000-000000000000`, {
              method: "POST",
              body: new URLSearchParams({ intent: "order_confirmed" }),
            }),
            params: { paymentId: "00000000-0000-0000-0000-000000000000" },
            context,
          } as unknown as Parameters<PaymentRoute["action"]>[0]),
      },
    };
  }

  // Production refuses to start without its own secret (decision 0028).
  const PRODUCTION_SECRET = "s".repeat(64);
  const event = (chargeId: string) =>
    JSON.stringify({ object: "event", id: `evt_test_${chargeId.slice(-8)}`, type: "charge.creation.succeeded", data: JSON.stringify({ id: chargeId }) });
  /** What a thrown `data(…, { status })` or a returned Response says. */
  async function statusOf(run: () => Promise<unknown>): Promise<number> {
    try {
      const result = await run();
      return result instanceof Response ? result.status : 200;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      const init = (thrown as { init?: { status?: number } }).init;
      if (init?.status) return init.status;
      throw thrown;
    }
  }

  it("answers 404, calling nobody, when Culqi is not configured: the webhook and the payment page", async () => {
    const routes = await load({ CULQI_PUBLIC_KEY: undefined, CULQI_SECRET_KEY: undefined, CULQI_WEBHOOK_AUTH: undefined });
    expect(await statusOf(() => routes.postWebhook(event("chr_test_offoffoffoff01")))).toBe(404);
    expect(await statusOf(() => routes.page.load())).toBe(404);
    expect(await statusOf(() => routes.page.post())).toBe(404);
  });

  it("refuses the webhook in production without CULQI_WEBHOOK_AUTH, before asking Culqi anything", async () => {
    expectConsoleError(/Culqi webhook refused: set CULQI_WEBHOOK_AUTH/);
    const routes = await load({
      ...bed.culqiKeys(),
      NODE_ENV: "production",
      CULQI_WEBHOOK_AUTH: undefined,
      SITE_URL: origin,
      SESSION_SECRET: PRODUCTION_SECRET,
    });
    const status = await statusOf(() => routes.postWebhook(event("chr_test_prodprodprod01")));
    expect(status).toBe(503);
    expect(bed.culqi.requestLog).not.toContain("GET /v2/charges/chr_test_prodprodprod01");
  });

  it("works in production with the secret, and refuses a webhook without it", async () => {
    const routes = await load({
      ...bed.culqiKeys(),
      NODE_ENV: "production",
      CULQI_WEBHOOK_AUTH: "culqi:s3creto",
      SITE_URL: origin,
      SESSION_SECRET: PRODUCTION_SECRET,
    });
    expect(await statusOf(() => routes.postWebhook(event("chr_test_unknown00000001")))).toBe(401);
    expect(bed.culqi.requestLog).not.toContain("GET /v2/charges/chr_test_unknown00000001");
    // A charge Culqi does not know: read once from Culqi, acknowledged, nothing to do.
    expect(await statusOf(() => routes.postWebhook(event("chr_test_unknown00000001"), { authorization: basicAuth }))).toBe(200);
    expect(bed.culqi.requestLog.filter((line) => line === "GET /v2/charges/chr_test_unknown00000001")).toHaveLength(1);
  });

  it("answers 415 to an event posted as anything but application/json, without asking Culqi about it", async () => {
    const routes = await load({ ...bed.culqiKeys(), NODE_ENV: "development", CULQI_WEBHOOK_AUTH: "culqi:s3creto" });
    for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded"]) {
      // Thrown, as every refusal of request-body.server.ts is: React Router sends it as it is.
      const refused = (await routes.postWebhook(event("chr_test_plaintext000001"), { authorization: basicAuth, "content-type": type }).then(
        () => null,
        (thrown: unknown) => thrown,
      )) as Response;
      expect(refused, type).toBeInstanceOf(Response);
      expect(refused.status, type).toBe(415);
      expect(await refused.json()).toEqual({ error: "La solicitud debe enviarse como JSON (Content-Type: application/json)." });
    }
    expect(bed.culqi.requestLog).not.toContain("GET /v2/charges/chr_test_plaintext000001");
    // The same event as JSON is read (once from Culqi) and acknowledged.
    expect(await statusOf(() => routes.postWebhook(event("chr_test_plaintext000001"), { authorization: basicAuth }))).toBe(200);
    expect(bed.culqi.requestLog).toContain("GET /v2/charges/chr_test_plaintext000001");
  });

  it("limits each client to 120 webhook calls a minute, whatever they carry", async () => {
    const routes = await load({ ...bed.culqiKeys(), NODE_ENV: "development", CULQI_WEBHOOK_AUTH: "culqi:s3creto" });
    const flood = (address: string) => routes.postWebhook(event("chr_test_flood0000000001"), { "x-socket-address": address });
    const statuses: number[] = [];
    for (let call = 0; call < 120; call += 1) statuses.push(await statusOf(() => flood("203.0.113.9")));
    expect(new Set(statuses)).toEqual(new Set([401]));
    const limited = await flood("203.0.113.9");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another client (Culqi itself) is not affected.
    expect((await flood("198.51.100.7")).status).toBe(401);
  });
});
