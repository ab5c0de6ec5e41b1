import type { ContactMessageInput } from "@core/contact-schema";
import { consumeRateLimit, rateLimitMessage } from "../accounts/index.server";
import { getSiteSettings } from "../content/index.server";
import { env, publicSiteUrl } from "../config/env";
import type { Database } from "../db/client";
import { contactMessages } from "../db/schema";
import { inTransaction } from "../db/transaction";
import { contactMessageEmail, enqueueEmail } from "../notifications/index.server";

export type SendContactMessageResult = { ok: true; duplicate: boolean } | { ok: false; reason: "rate_limited"; message: string };

/** Five messages an hour from one client is plenty for a person and little for a spammer. */
export function contactRateLimit() {
  return { limit: 5 * env().CLIENT_RATE_LIMIT_FACTOR, windowSeconds: 60 * 60 };
}

/**
 * Stores a message from /contact and queues its e-mail to the shop's contact address in the same
 * transaction (outbox), so staff get both or neither. The form's submission id makes a second send
 * of the same form (double click, reload after posting) change nothing.
 */
export async function sendContactMessage(
  db: Database,
  input: ContactMessageInput & { submissionId: string },
  options: { client: string; now?: Date },
): Promise<SendContactMessageResult> {
  const now = options.now ?? new Date();
  const limit = await consumeRateLimit(db, `contact:${options.client}`, contactRateLimit(), now);
  if (!limit.allowed) return { ok: false, reason: "rate_limited", message: rateLimitMessage(limit.retryAfterSeconds) };
  const settings = await getSiteSettings(db);
  return inTransaction(db, async (tx) => {
    const [stored] = await tx
      .insert(contactMessages)
      .values({
        submissionId: input.submissionId,
        name: input.name,
        email: input.email,
        phone: input.phone,
        subject: input.subject,
        message: input.message,
        createdAt: now,
      })
      .onConflictDoNothing({ target: contactMessages.submissionId })
      .returning({ id: contactMessages.id });
    if (!stored) return { ok: true, duplicate: true };
    const email = contactMessageEmail({ brandName: settings.brandName, ...input, inboxUrl: `${publicSiteUrl()}/admin/mensajes` });
    await enqueueEmail(tx, { dedupeKey: `contact-message:${stored.id}`, kind: "contact_message", to: settings.contactEmail, ...email }, now);
    return { ok: true, duplicate: false };
  });
}
