import { eq } from "drizzle-orm";
import { publicSiteUrl } from "../config/env";
import { readBrandName } from "../content/index.server";
import { type subscriptions, users } from "../db/schema";
import { enqueueEmail } from "../notifications/index.server";
import {
  renewalFailedEmail,
  renewalReminderEmail,
  subscriptionChangedEmail,
  subscriptionPastDueEmail,
  subscriptionPriceChangeEmail,
} from "../notifications/index.server";
import type { DatabaseOrTransaction } from "../db/transaction";
import { enqueueWhatsappTemplate, renewalFailedWhatsapp, renewalSoonWhatsapp } from "../whatsapp/index.server";

type SubscriptionEmail =
  | { type: "reminder"; billingDate: string; amountCents: number }
  | { type: "failed"; amountCents: number; reason: string; nextAttemptDate: string }
  | { type: "past_due"; amountCents: number }
  | { type: "changed"; change: string }
  | { type: "price_change"; productTitle: string; oldPriceCents: number; newPriceCents: number; fromBillingDate: string; newAmountCents: number | null };

/** Issue 25: the WhatsApp template that goes with some of these e-mails, to a number that opted in. */
type SubscriptionWhatsapp =
  | { type: "renewal_soon"; periodNumber: number; billingDate: string; amountCents: number }
  | { type: "renewal_failed"; periodNumber: number; attempt: number; amountCents: number; nextAttemptDate: string | null };

/** Queues a subscription email to its customer, in the caller's transaction, once per dedupe key. */
export async function notifySubscriber(
  tx: DatabaseOrTransaction,
  subscription: Pick<typeof subscriptions.$inferSelect, "id" | "userId" | "subscriptionNumber">,
  message: { dedupeKey: string; kind: string; email: SubscriptionEmail | null; whatsapp?: SubscriptionWhatsapp; now: Date; siteUrl?: string },
): Promise<void> {
  const [user] = await tx.select({ email: users.email, firstName: users.firstName, phone: users.phone }).from(users).where(eq(users.id, subscription.userId));
  if (!user) return;
  const brandName = await readBrandName(tx);
  const base = {
    brandName,
    firstName: user.firstName,
    subscriptionNumber: subscription.subscriptionNumber,
    manageUrl: new URL(`/dashboard/suscripciones/${subscription.id}`, message.siteUrl ?? publicSiteUrl()).toString(),
  };
  if (message.whatsapp) {
    const recipient = {
      phone: user.phone,
      firstName: user.firstName,
      userId: subscription.userId,
      email: user.email,
      siteUrl: message.siteUrl ?? publicSiteUrl(),
      subscriptionId: subscription.id,
      subscriptionNumber: subscription.subscriptionNumber,
    };
    const whatsapp = message.whatsapp;
    await enqueueWhatsappTemplate(
      tx,
      whatsapp.type === "renewal_soon" ? renewalSoonWhatsapp({ ...recipient, ...whatsapp }) : renewalFailedWhatsapp({ ...recipient, ...whatsapp }),
      message.now,
    );
  }
  const email = message.email;
  if (!email) return;
  const content = (() => {
    switch (email.type) {
      case "reminder":
        return renewalReminderEmail({ ...base, ...email });
      case "failed":
        return renewalFailedEmail({ ...base, ...email });
      case "past_due":
        return subscriptionPastDueEmail({ ...base, ...email });
      case "changed":
        return subscriptionChangedEmail({ ...base, ...email });
      case "price_change":
        return subscriptionPriceChangeEmail({ ...base, ...email });
    }
  })();
  await enqueueEmail(tx, { dedupeKey: message.dedupeKey, kind: message.kind, to: user.email, ...content }, message.now);
}
