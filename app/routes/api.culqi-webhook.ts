import type { Route } from "./+types/api.culqi-webhook";
import { culqiClient, culqiWebhookAuthorization, handleCulqiWebhook } from "@server/payments/index.server";
import { dbContext } from "~/db-context.server";
import { siteInfo } from "~/site-info.server";

/** Culqi's webhook endpoint (payments.md A.9); configure this URL and its Basic auth in CulqiPanel. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response(null, { status: 405 });
  const db = context.get(dbContext);
  const site = await siteInfo(db, request);
  const outcome = await handleCulqiWebhook(db, culqiClient(), {
    rawBody: await request.text(),
    authorization: request.headers.get("authorization"),
    expectedAuthorization: culqiWebhookAuthorization(),
    now: new Date(),
    siteUrl: site.siteUrl,
  });
  return new Response(null, { status: outcome.status });
}
