import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { limaToday } from "@core/lima-dates";
import type { Database } from "../db/client";
import { readBrandName } from "../content/index.server";
import { orders, subscriptionEvents, subscriptionPeriods, subscriptions, users } from "../db/schema";
import { enqueueEmail } from "../notifications/index.server";
import { renewalPaymentLinkEmail } from "../notifications/index.server";
import { advanceSubscription, currentPeriod, failAttempt, MAX_ATTEMPTS } from "./period-ledger";
import { insertRenewalOrder } from "./renewal-orders";
import { clearRowFailures, forEachRowOnItsOwn, inRowSavepoint } from "../db/row-failures";
import { inTransaction } from "../db/transaction";

/** How long the customer has to pay a period's link before the subscription is paused as past due. */
export const PAYMENT_LINK_DAYS = 7;

const LINKS_JOB = "renewal payment links";

/**
 * Issue 5: customers without a saved card (Yape) get a payment link by email each period. The
 * period's order is created once (the period row is locked and moves to awaiting_payment), with
 * a payment the active provider's page collects — Yape, card or a cash code.
 */
export async function issueRenewalPaymentLinks(
  db: Database,
  options: { now: Date; siteUrl: string; provider: { id: string; paymentPath(paymentId: string): string } },
): Promise<number> {
  const today = limaToday(options.now);
  return inTransaction(db, async (tx) => {
    const due = await tx
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.status, "active"),
          eq(subscriptions.billingMethod, "payment_link"),
          lte(subscriptions.nextBillingDate, today),
          sql`(${subscriptions.endsOn} is null or ${subscriptions.endsOn} > ${subscriptions.nextBillingDate})`,
        ),
      )
      .orderBy(asc(subscriptions.nextBillingDate))
      .limit(200)
      .for("update", { skipLocked: true });
    let issued = 0;
    const handled: string[] = [];
    for (const subscription of due) {
      const ok = await inRowSavepoint(tx, LINKS_JOB, subscription.id, options.now, async (tx) => {
        const period = await currentPeriod(tx, subscription, options.now);
        if (period.status !== "due") return;
        const expiresAt = new Date(options.now.getTime() + PAYMENT_LINK_DAYS * 86_400_000);
        const order = await insertRenewalOrder(tx, subscription, period, { provider: options.provider.id, method: null, now: options.now, expiresAt });
        await tx
          .update(subscriptionPeriods)
          .set({ status: "awaiting_payment", orderId: order.orderId, attempts: 1, updatedAt: options.now })
          .where(eq(subscriptionPeriods.id, period.id));
        await tx.insert(subscriptionEvents).values({
          subscriptionId: subscription.id,
          kind: "payment_link_sent",
          description: `Enlace de pago del periodo ${period.periodNumber} enviado (pedido ${order.orderNumber})`,
          actor: "system",
          createdAt: options.now,
        });
        const [user] = await tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, subscription.userId));
        const brandName = await readBrandName(tx);
        const payUrl = new URL(options.provider.paymentPath(order.paymentId), options.siteUrl).toString();
        const email = renewalPaymentLinkEmail({
          brandName,
          firstName: user!.firstName,
          subscriptionNumber: subscription.subscriptionNumber,
          manageUrl: payUrl,
          amountCents: period.amountCents,
          billingDate: period.billingDate,
          payUrl,
        });
        await enqueueEmail(
          tx,
          { dedupeKey: `renewal-link:${subscription.id}:${period.periodNumber}`, kind: "renewal_payment_link", to: user!.email, ...email },
          options.now,
        );
        issued += 1;
      });
      if (ok) handled.push(subscription.id);
    }
    await clearRowFailures(tx, LINKS_JOB, handled);
    return issued;
  });
}

/**
 * Periods waiting on their link: a paid order settles the period and moves the subscription on;
 * an order that expired unpaid pauses the subscription as past due, as a card's last failure does.
 */
export async function settlePaymentLinkPeriods(db: Database, now: Date): Promise<number> {
  const rows = await db
    .select({ periodId: subscriptionPeriods.id, subscriptionId: subscriptionPeriods.subscriptionId, orderStatus: orders.status })
    .from(subscriptionPeriods)
    .innerJoin(orders, eq(orders.id, subscriptionPeriods.orderId))
    .where(
      and(eq(subscriptionPeriods.status, "awaiting_payment"), inArray(orders.status, ["paid", "processing", "shipped", "delivered", "cancelled", "failed"])),
    );
  await forEachRowOnItsOwn(
    db,
    "payment link periods",
    rows,
    (row) => row.subscriptionId,
    now,
    (row) =>
      inTransaction(db, async (tx) => {
        // Decision 0025: the subscription before its period.
        const [subscription] = await tx.select().from(subscriptions).where(eq(subscriptions.id, row.subscriptionId)).for("update");
        const [period] = await tx.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.id, row.periodId)).for("update");
        if (period?.status !== "awaiting_payment") return;
        if (["cancelled", "failed"].includes(row.orderStatus)) {
          await failAttempt(tx, subscription!, { ...period, attempts: MAX_ATTEMPTS }, "El enlace de pago venció sin pagarse", now);
          return;
        }
        await tx.update(subscriptionPeriods).set({ status: "paid", updatedAt: now }).where(eq(subscriptionPeriods.id, period.id));
        await advanceSubscription(tx, subscription!, period, now);
        await tx.insert(subscriptionEvents).values({
          subscriptionId: subscription!.id,
          kind: "renewed",
          description: `Periodo ${period.periodNumber} pagado con el enlace`,
          actor: "customer",
          createdAt: now,
        });
      }),
  );
  return rows.length;
}

/** A subscription whose first order expired before a card was saved never started. */
export async function closeAbandonedSignups(db: Database, now: Date): Promise<number> {
  const abandoned = await db
    .update(subscriptions)
    .set({ status: "cancelled", cancelReason: "Pago inicial no completado", cancelledAt: now, updatedAt: now })
    .where(
      and(
        eq(subscriptions.status, "pending_payment"),
        sql`exists (select 1 from ${orders} o where o.id = ${subscriptions.orderId} and o.status in ('cancelled', 'failed'))`,
      ),
    )
    .returning({ id: subscriptions.id });
  return abandoned.length;
}
