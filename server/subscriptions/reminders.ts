import { and, eq, gt, lte } from "drizzle-orm";
import { addDays, limaToday } from "@core/lima-dates";
import { orderSummary } from "@core/pricing";
import type { Database } from "../db/client";
import { subscriptions } from "../db/schema";
import { forEachRowOnItsOwn } from "../db/row-failures";
import { notifySubscriber } from "./notify";

/** Issue 5: "a reminder email a few days before each renewal". */
export const REMINDER_DAYS_BEFORE = 3;
/** Issue 25: the WhatsApp reminder ("renovación en 2 días") comes two days before. */
export const WHATSAPP_REMINDER_DAYS_BEFORE = 2;

/** One reminder per subscription and period (the dedupe key), whenever in the window the job runs. */
export async function sendRenewalReminders(db: Database, now: Date, siteUrl: string): Promise<number> {
  const today = limaToday(now);
  const upcoming = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, "active"),
        gt(subscriptions.nextBillingDate, today),
        lte(subscriptions.nextBillingDate, addDays(today, REMINDER_DAYS_BEFORE)),
      ),
    );
  await forEachRowOnItsOwn(
    db,
    "renewal reminders",
    upcoming,
    (subscription) => subscription.id,
    now,
    async (subscription) => {
      const frequency = (subscription.pendingFrequency ?? subscription.frequency) as "mensual" | "anual";
      const amountCents = orderSummary(subscription.baseAmountCents, "subscription", frequency).totalCents;
      const billingDate = subscription.nextBillingDate!;
      await notifySubscriber(db, subscription, {
        dedupeKey: `renewal-reminder:${subscription.id}:${subscription.nextPeriodNumber}`,
        kind: "renewal_reminder",
        email: { type: "reminder", billingDate, amountCents },
        whatsapp:
          billingDate <= addDays(today, WHATSAPP_REMINDER_DAYS_BEFORE)
            ? { type: "renewal_soon", periodNumber: subscription.nextPeriodNumber, billingDate, amountCents }
            : undefined,
        now,
        siteUrl,
      });
    },
  );
  return upcoming.length;
}
