import { createHmac } from "node:crypto";
import path from "node:path";
import { appSecret } from "../config/app-secret";
import { env } from "../config/env";

/**
 * Which way WhatsApp messages leave (issue 25, decision 0074): the Cloud API when its four secrets
 * are set; otherwise, in the local demo (`WHATSAPP_LOCAL_OUTBOX`), files beside the e-mail outbox;
 * otherwise nowhere: the shop sends e-mail only, queues no WhatsApp message and offers no opt-in.
 */
export type WhatsappChannel =
  | { kind: "cloud"; apiUrl: string; token: string; phoneNumberId: string; appSecret: string; verifyToken: string }
  /**
   * The local demo: messages to files; the webhook takes customers' messages signed with
   * `localWebhookKey()` (`npm run whatsapp:say`, issue 38).
   */
  | { kind: "local"; dir: string };

export function whatsappChannel(): WhatsappChannel | null {
  const config = env();
  if (config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID && config.WHATSAPP_APP_SECRET && config.WHATSAPP_VERIFY_TOKEN)
    return {
      kind: "cloud",
      apiUrl: config.WHATSAPP_API_URL.replace(/\/+$/, ""),
      token: config.WHATSAPP_TOKEN,
      phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
      appSecret: config.WHATSAPP_APP_SECRET,
      verifyToken: config.WHATSAPP_VERIFY_TOKEN,
    };
  if (config.WHATSAPP_LOCAL_OUTBOX) return { kind: "local", dir: path.resolve(process.cwd(), config.OUTBOX_DIR) };
  return null;
}

/** Whether the shop offers WhatsApp at all (the opt-in boxes, queueing messages). */
export function whatsappEnabled(): boolean {
  return whatsappChannel() !== null;
}

/**
 * The local demo's webhook key (decision 0090): HMAC-SHA256 of a fixed label with the app secret
 * (SESSION_SECRET, or the machine's `.data/app-secret`), so only whoever holds that secret — the
 * newcomer's own `npm run whatsapp:say` — can post a customer's message to a demo shop. The
 * script computes the same (scripts/whatsapp-say.mjs).
 */
export function localWebhookKey(secret: string = appSecret()): string {
  return createHmac("sha256", secret).update("whatsapp-local-webhook").digest("hex");
}

/** The phone number id the local demo's webhook takes (a message naming another is ignored). */
export const LOCAL_PHONE_NUMBER_ID = "local";
