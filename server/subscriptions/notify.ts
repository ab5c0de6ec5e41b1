import { eq } from "drizzle-orm";
import { publicSiteUrl } from "../config/env";
import { siteSettings, type subscriptions, users } from "../db/schema";
import { enqueueEmail } from "../notifications/index.server";
import {
  renewalFailedEmail,
  renewalReminderEmail,
  subscriptionChangedEmail,
  subscriptionPastDueEmail,
  subscriptionPriceChangeEmail,
} from "../notifications/index.server";
import type { DatabaseOrTransaction } from "../db/transaction";

type SubscriptionEmail =
  | { type: "reminder"; billingDate: string; amountCents: number }
  | { type: "failed"; amountCents: number; reason: string; nextAttemptDate: string }
  | { type: "past_due"; amountCents: number }
  | { type: "changed"; change: string }
  | { type: "price_change"; productTitle: string; oldPriceCents: number; newPriceCents: number; fromBillingDate: string; newAmountCents: number | null };

/** Queues a subscription email to its customer, in the caller's transaction, once per dedupe key. */
export async function notifySubscriber(
  tx: DatabaseOrTransaction,
  subscription: Pick<typeof subscriptions.$inferSelect, "id" | "userId" | "subscriptionNumber">,
  message: { dedupeKey: string; kind: string; email: SubscriptionEmail; now: Date; siteUrl?: string },
): Promise<void> {
  const [user] = await tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, subscription.userId));
  if (!user) return;
  const [settings] = await tx.select({ brandName: siteSettings.brandName }).from(siteSettings);
  const base = {
    brandName: settings?.brandName ?? "Vida Alcalina",
    firstName: user.firstName,
    subscriptionNumber: subscription.subscriptionNumber,
    manageUrl: new URL(`/dashboard/suscripciones/${subscription.id}`, message.siteUrl ?? publicSiteUrl()).toString(),
  };
  const content = (() => {
    switch (message.email.type) {
      case "reminder":
        return renewalReminderEmail({ ...base, ...message.email });
      case "failed":
        return renewalFailedEmail({ ...base, ...message.email });
      case "past_due":
        return subscriptionPastDueEmail({ ...base, ...message.email });
      case "changed":
        return subscriptionChangedEmail({ ...base, ...message.email });
      case "price_change":
        return subscriptionPriceChangeEmail({ ...base, ...message.email });
    }
  })();
  await enqueueEmail(tx, { dedupeKey: message.dedupeKey, kind: message.kind, to: user.email, ...content }, message.now);
}
