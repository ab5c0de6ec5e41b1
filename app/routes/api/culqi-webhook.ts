import type { Route } from "./+types/culqi-webhook";
import { consumeRateLimit } from "@server/accounts/index.server";
import { handleCulqiWebhook } from "@server/order-flows/index.server";
import { culqiClient, culqiWebhookSetup, CULQI_WEBHOOK_RATE_LIMIT } from "@server/payments/index.server";
import { dbContext } from "~/server/db-context.server";
import { readText, requireJsonContentType } from "~/server/request-body.server";
import { clientKey } from "~/server/session.server";
import { siteInfo } from "~/server/site-info.server";

let warnedUnprotected = false;

/**
 * Culqi's webhook endpoint (payments.md A.9); configure this URL and its Basic auth in CulqiPanel.
 * Without Culqi it does not exist; in production it refuses to work without the Basic auth secret;
 * each client address is limited before anything else is done (decision 0026-late-payments-and-refunds).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const setup = culqiWebhookSetup();
  if (setup.kind === "off") return Response.json({ error: CULQI_OFF }, { status: 404 });
  if (request.method !== "POST") return Response.json({ error: "Método no permitido" }, { status: 405, headers: { Allow: "POST" } });
  if (setup.kind === "unprotected") {
    if (!warnedUnprotected)
      console.error("[payments] Culqi webhook refused: set CULQI_WEBHOOK_AUTH (the Basic auth user:password configured in CulqiPanel) in production");
    warnedUnprotected = true;
    return new Response(null, { status: 503 });
  }
  const db = context.get(dbContext);
  const limit = await consumeRateLimit(db, `culqi-webhook:${clientKey(request)}`, CULQI_WEBHOOK_RATE_LIMIT);
  if (!limit.allowed) return new Response(null, { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } });
  // Culqi posts its events as JSON (payments.md A.9); any other type is a 415, body unread (issue 39).
  requireJsonContentType(request);
  const site = await siteInfo(db, request);
  const outcome = await handleCulqiWebhook(db, culqiClient(), {
    rawBody: await readText(request, "webhook"),
    authorization: request.headers.get("authorization"),
    expectedAuthorization: setup.expectedAuthorization,
    now: new Date(),
    siteUrl: site.siteUrl,
  });
  return new Response(null, { status: outcome.status });
}

/** A retrying sender, or a curious visitor, is told in Spanish that nothing answers here. */
const CULQI_OFF = "Los pagos con Culqi no están activos en esta tienda";

/** A GET is not Culqi: the same 404 when Culqi is off, 405 otherwise. */
export function loader() {
  const off = culqiWebhookSetup().kind === "off";
  return Response.json({ error: off ? CULQI_OFF : "Método no permitido" }, { status: off ? 404 : 405, headers: { Allow: "POST" } });
}
