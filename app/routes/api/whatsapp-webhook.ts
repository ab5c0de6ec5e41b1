import type { Route } from "./+types/whatsapp-webhook";
import {
  checkWebhookSignature,
  handleWhatsappWebhook,
  LOCAL_PHONE_NUMBER_ID,
  localWebhookKey,
  verifyWebhookSubscription,
  whatsappChannel,
} from "@server/whatsapp/index.server";
import { dbContext } from "~/server/db-context.server";
import { readBytes, requireJsonContentType } from "~/server/request-body.server";

/**
 * Meta's webhook for the WhatsApp Business Account (issue 25, docs/whatsapp.md): the GET that
 * verifies the subscription, and the POSTs of message statuses and customers' messages. With the
 * Cloud API configured; in the local demo only the POST, signed with the machine's local key
 * (`npm run whatsapp:say`, issue 38); an unconfigured shop answers 404.
 */
const WHATSAPP_OFF = "WhatsApp no está activo en esta tienda";

function cloudChannel() {
  const channel = whatsappChannel();
  return channel?.kind === "cloud" ? channel : null;
}

/** `GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`: the challenge back, or 403. */
export function loader({ request }: Route.LoaderArgs) {
  const channel = cloudChannel();
  if (!channel) return Response.json({ error: WHATSAPP_OFF }, { status: 404 });
  const challenge = verifyWebhookSubscription(new URL(request.url).searchParams, channel.verifyToken);
  if (challenge === null) return new Response("Token de verificación incorrecto", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * A notification: its size bounded, its raw bytes checked against `X-Hub-Signature-256` before
 * anything is parsed (401 without a signature, 403 with a wrong one; never processed), then
 * recorded idempotently and answered 200 at once — also when some items in it were unreadable
 * (issue 39); 500 only when a write failed, so that Meta delivers it again.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const configured = whatsappChannel();
  const channel =
    configured?.kind === "cloud" ? configured : configured?.kind === "local" ? { appSecret: localWebhookKey(), phoneNumberId: LOCAL_PHONE_NUMBER_ID } : null;
  if (!channel) return Response.json({ error: WHATSAPP_OFF }, { status: 404 });
  if (request.method !== "POST") return Response.json({ error: "Método no permitido" }, { status: 405, headers: { Allow: "GET, POST" } });
  // Meta posts JSON (docs/whatsapp.md); any other type is a 415, body unread (issue 39).
  requireJsonContentType(request);
  const rawBody = await readBytes(request, "webhook");
  const signature = checkWebhookSignature(rawBody, request.headers.get("x-hub-signature-256"), channel.appSecret);
  if (signature === "missing") return Response.json({ error: "Falta la firma X-Hub-Signature-256" }, { status: 401 });
  if (signature === "invalid") return Response.json({ error: "La firma no es válida" }, { status: 403 });
  const outcome = await handleWhatsappWebhook(context.get(dbContext), rawBody, { now: new Date(), phoneNumberId: channel.phoneNumberId });
  // An opt-out's confirmation leaves at once, inside the customer's 24-hour window (the root middleware sends what this queued).
  if (outcome.status === 400) return Response.json({ error: "La solicitud no es válida" }, { status: 400 });
  // An item the database could not take (the others were recorded): Meta delivers the batch again.
  if (outcome.status === 500) return Response.json({ error: "No se pudo registrar todo; reintentar" }, { status: 500 });
  return new Response(null, { status: 200 });
}
