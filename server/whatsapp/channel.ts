import path from "node:path";
import { env } from "../config/env";

/**
 * Which way WhatsApp messages leave (issue 25, decision 0074): the Cloud API when its four secrets
 * are set; otherwise, in the local demo (`WHATSAPP_LOCAL_OUTBOX`), files beside the e-mail outbox;
 * otherwise nowhere: the shop sends e-mail only, queues no WhatsApp message and offers no opt-in.
 */
export type WhatsappChannel =
  { kind: "cloud"; apiUrl: string; token: string; phoneNumberId: string; appSecret: string; verifyToken: string } | { kind: "local"; dir: string };

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
