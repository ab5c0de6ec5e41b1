/** Subscribers for domain tests: a customer row, a checkout, a saved sandbox card, and the job runs of a moving clock. */
import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { placeOrder } from "@server/checkout/index.server";
import type { Database } from "@server/db/index.server";
import { outboxEmails, sandboxCharges, subscriptionEvents, subscriptions, users } from "@server/db/schema";
import { runDueJobs } from "@server/jobs/index.server";
import { sandboxCardProvider, sandboxCardToken } from "@server/payments/index.server";
import { activateSubscription } from "@server/subscriptions/index.server";
import { addDays } from "@core/lima-dates";
import type { DeliveryCadence } from "@core/delivery-cadence";
import { checkoutInput } from "./checkout-fixture";

export const siteUrl = "http://localhost:3000";
/** 10:00 in Lima, Monday 23 November 2026: the day every fixture subscription starts. */
export const start = new Date("2026-11-23T15:00:00Z");

/** Noon in Lima on a calendar date. */
export const limaNoon = (date: string) => new Date(`${date}T17:00:00Z`);

export async function newCustomer(db: Database, prefix = "cliente"): Promise<{ id: string; email: string }> {
  const email = `${prefix}-${randomUUID().slice(0, 8)}@prueba.pe`;
  const id = `user-${email}`;
  await db.insert(users).values({ id, name: "Rosa Quispe", email, emailVerified: true, firstName: "Rosa", lastName: "Quispe" });
  return { id, email };
}

/**
 * A customer subscribed on `start`: 2 × Pack x 12 (S/ 60.00 a delivery; a month of them with a weekly
 * or biweekly cadence, decision 0097), first delivery Wednesday 25 November in Miraflores.
 */
export async function subscribe(
  db: Database,
  customer: { id: string; email: string },
  frequency: "mensual" | "anual",
  card = "4111111111111111",
  deliveryCadence: DeliveryCadence = "monthly",
): Promise<string> {
  const placed = await placeOrder(
    db,
    checkoutInput(start, {
      purchaseType: "subscription",
      subscriptionFrequency: frequency,
      deliveryCadence,
      correo: customer.email,
      items: [{ productId: 1, variantId: 1, quantity: 2 }],
      clientSubtotalCents: 6000,
    }),
    { now: start, provider: "sandbox", userId: customer.id },
  );
  if (!placed.ok || placed.nextStep !== "tokenize_card") throw new Error("not placed");
  const activated = await activateSubscription(db, {
    subscriptionId: placed.subscriptionId,
    userId: customer.id,
    token: sandboxCardToken({ number: card }),
    cards: sandboxCardProvider(db),
    now: start,
    siteUrl,
  });
  if (!activated.ok) throw new Error("not activated");
  return placed.subscriptionId;
}

/** Every job of the shop at noon Lima time, from `from` to `to` inclusive, every `stepDays` days. */
export async function runJobs(db: Database, from: string, to: string, stepDays = 1) {
  const discard = { send: async () => {} };
  for (let day = from; day <= to; day = addDays(day, stepDays)) {
    await runDueJobs(db, { now: limaNoon(day), siteUrl, transport: discard, cardsFor: () => sandboxCardProvider(db) });
  }
}

export const chargesOf = (db: Database, subscriptionId: string) =>
  db
    .select()
    .from(sandboxCharges)
    .where(like(sandboxCharges.chargeKey, `${subscriptionId}:%`))
    .orderBy(asc(sandboxCharges.createdAt));

export const subscriptionRow = async (db: Database, subscriptionId: string) =>
  (await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0]!;

export const customerEvents = (db: Database, subscriptionId: string) =>
  db
    .select()
    .from(subscriptionEvents)
    .where(and(eq(subscriptionEvents.subscriptionId, subscriptionId), eq(subscriptionEvents.actor, "customer")))
    .orderBy(asc(subscriptionEvents.id));

export const changeEmails = (db: Database, subscriptionId: string) =>
  db
    .select()
    .from(outboxEmails)
    .where(like(outboxEmails.dedupeKey, `subscription-change:${subscriptionId}:%`))
    .orderBy(asc(outboxEmails.id));
