import { randomUUID } from "node:crypto";
import type { Database } from "@server/db/client";
import { handleWhatsappWebhook } from "@server/whatsapp/index.server";

/**
 * The number writes to the shop, as Meta's webhook would deliver it (issue 39): "Sí" answers the
 * shop's question and proves the number for the order or account it was asked with.
 */
export async function writeOnWhatsapp(db: Database, from: string, text: string, at: Date, phoneNumberId: string) {
  const body = {
    object: "whatsapp_business_account",
    entry: [
      {
        changes: [
          {
            field: "messages",
            value: {
              metadata: { phone_number_id: phoneNumberId },
              messages: [{ from, id: `wamid.${randomUUID()}`, timestamp: String(Math.floor(at.getTime() / 1000)), type: "text", text: { body: text } }],
            },
          },
        ],
      },
    ],
  };
  return handleWhatsappWebhook(db, new TextEncoder().encode(JSON.stringify(body)), { now: at, phoneNumberId });
}
