/**
 * Due renewals in bulk, as the renewal bench (bench/renewals.ts) and the concurrency stress suite
 * (tests/stress) both need them: subscriptions as activation leaves them a month later, period 2
 * due today on a saved sandbox card; and the exactly-once checks made from the database's side.
 */
import { randomUUID } from "node:crypto";
import { and, asc, count as countRows, countDistinct, eq, sql } from "drizzle-orm";
import { addDays, isoWeekday, limaToday } from "../../core/lima-dates";
import { orderSummary } from "../../core/pricing";
import { addMonthsClamped } from "../../core/subscription-dates";
import type { Database } from "../../server/db/client";
import {
  districtDeliveryDays,
  districts,
  invoices,
  orderItems,
  orders,
  outboxEmails,
  paymentMethods,
  productVariants,
  products,
  sandboxCharges,
  subscriptionItems,
  subscriptionPeriods,
  subscriptions,
  users,
} from "../../server/db/schema";
import { inTransaction } from "../../server/db/transaction";

const INSERT_BATCH = 1000;

function chunks<T>(rows: T[], size = INSERT_BATCH): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

/** The first weekday of the district on or after `from`. */
function firstServedDay(from: string, days: number[]): string {
  for (let step = 0; step < 7; step += 1) if (days.includes(isoWeekday(addDays(from, step)))) return addDays(from, step);
  return from;
}

/**
 * 10 000 subscriptions as activation leaves them, a month later: active, mensual, period 1 paid
 * with the checkout order, period 2 due today on a saved sandbox Visa. Bulk inserts, 1 000 rows a
 * statement, ids made here so rows can refer to each other without reading them back.
 */
export async function insertDueSubscriptions(db: Database, now: Date, count: number) {
  const today = limaToday(now);
  const startDate = addMonthsClamped(today, -1);
  const [district] = await db.select().from(districts).where(eq(districts.name, "Miraflores"));
  const days = (
    await db.select({ day: districtDeliveryDays.dayNumber }).from(districtDeliveryDays).where(eq(districtDeliveryDays.districtId, district!.id))
  ).map((row) => row.day);
  const [variant] = await db
    .select({
      productId: products.id,
      variantId: productVariants.id,
      title: products.title,
      variantTitle: productVariants.title,
      priceCents: productVariants.priceCents,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .orderBy(asc(productVariants.id))
    .limit(1);
  // Enough bottles for a subtotal above the S/50 minimum, as checkout requires.
  const quantity = Math.max(1, Math.ceil(6000 / variant!.priceCents));
  const subtotal = variant!.priceCents * quantity;
  const summary = orderSummary(subtotal, "subscription", "mensual");
  const firstDelivery = firstServedDay(addDays(startDate, 2), days);
  // The delivery of period 2 falls within the scheduler's 7-day window, so it is created today.
  const nextDelivery = firstServedDay(addDays(today, 2), days);
  const started = new Date(now.getTime() - 30 * 86_400_000);

  const rows = Array.from({ length: count }, (_, index) => {
    const n = String(index + 1).padStart(5, "0");
    return {
      n,
      userId: `bench-user-${n}`,
      subscriptionId: randomUUID(),
      orderId: randomUUID(),
      methodId: randomUUID(),
      cardId: `sbx_crd_${randomUUID()}_1111`,
      chargeId: `sbx_chr_${randomUUID()}`,
    };
  });
  // What the checkout order and the subscription both carry: whose it is, where and when it goes.
  const sharedFields = (row: (typeof rows)[number]) => ({
    userId: row.userId,
    districtId: district!.id,
    districtName: district!.name,
    address: `Av. José Larco ${row.n}`,
    deliveryWindow: "manana",
    createdAt: started,
    updatedAt: started,
  });
  for (const batch of chunks(rows)) {
    await inTransaction(db, async (tx) => {
      await tx.insert(users).values(
        batch.map((row) => ({
          id: row.userId,
          name: `Cliente ${row.n}`,
          email: `bench-${row.n}@prueba.pe`,
          emailVerified: true,
          firstName: "Cliente",
          lastName: row.n,
          phone: "987654321",
          createdAt: started,
          updatedAt: started,
        })),
      );
      await tx.insert(paymentMethods).values(
        batch.map((row) => ({
          id: row.methodId,
          userId: row.userId,
          provider: "sandbox",
          providerCardId: row.cardId,
          brand: "Visa",
          last4: "1111",
          createdAt: started,
        })),
      );
      await tx.insert(orders).values(
        batch.map((row) => ({
          ...sharedFields(row),
          id: row.orderId,
          subscriptionId: row.subscriptionId,
          status: "paid",
          orderType: "subscription",
          subscriptionFrequency: "mensual",
          customerFirstName: "Cliente",
          customerLastName: row.n,
          customerEmail: `bench-${row.n}@prueba.pe`,
          customerPhone: "987654321",
          documentType: "dni",
          documentNumber: String(40_000_000 + Number(row.n)),
          deliveryDate: firstDelivery,
          subtotalCents: summary.subtotalCents,
          discountCents: summary.discountCents,
          totalCents: summary.totalCents,
          paymentProvider: "sandbox",
          paymentMethod: "card",
          paidAt: started,
        })),
      );
      await tx.insert(orderItems).values(
        batch.map((row) => ({
          orderId: row.orderId,
          productId: variant!.productId,
          variantId: variant!.variantId,
          title: variant!.title,
          variantTitle: variant!.variantTitle,
          unitPriceCents: variant!.priceCents,
          quantity,
          lineTotalCents: subtotal,
        })),
      );
      await tx.insert(subscriptions).values(
        batch.map((row) => ({
          ...sharedFields(row),
          id: row.subscriptionId,
          orderId: row.orderId,
          status: "active",
          frequency: "mensual",
          discountRateBasisPoints: 500,
          baseAmountCents: subtotal,
          amountCents: summary.totalCents,
          startDate,
          nextBillingDate: today,
          nextDeliveryDate: nextDelivery,
          paymentProvider: "sandbox",
          paymentMethodId: row.methodId,
          billingMethod: "card",
          nextPeriodNumber: 2,
          deliveriesMade: 1,
          cardBrand: "Visa",
          cardLast4: "1111",
        })),
      );
      await tx.insert(subscriptionItems).values(
        batch.map((row) => ({
          subscriptionId: row.subscriptionId,
          productId: variant!.productId,
          variantId: variant!.variantId,
          title: variant!.title,
          variantTitle: variant!.variantTitle,
          unitPriceCents: variant!.priceCents,
          quantity,
        })),
      );
      await tx.insert(subscriptionPeriods).values(
        batch.map((row) => ({
          subscriptionId: row.subscriptionId,
          periodNumber: 1,
          billingDate: startDate,
          status: "paid",
          amountCents: summary.totalCents,
          attempts: 1,
          chargeKey: `${row.subscriptionId}:1:1`,
          providerChargeId: row.chargeId,
          orderId: row.orderId,
          createdAt: started,
          updatedAt: started,
        })),
      );
      await tx.insert(sandboxCharges).values(
        batch.map((row) => ({
          chargeKey: `${row.subscriptionId}:1:1`,
          chargeId: row.chargeId,
          cardId: row.cardId,
          amountCents: summary.totalCents,
          paid: true,
          createdAt: started,
        })),
      );
    });
  }
  // Fresh planner statistics, as autovacuum would have gathered over a month of real sign-ups.
  await db.execute(sql`analyze`);
  return { amountCents: summary.totalCents, today };
}

export const benchSubscriptions = sql`${subscriptions.userId} like 'bench-user-%'`;

/** Exactly once, checked from the database's side: periods, orders, invoices, charges, deliveries. */
export async function verifyRenewals(db: Database, now: Date, count: number) {
  const one = async <T>(query: Promise<T[]>) => (await query)[0]!;
  const periods = await one(
    db
      .select({
        paid: sql<number>`count(*) filter (where ${subscriptionPeriods.status} = 'paid')`,
        other: sql<number>`count(*) filter (where ${subscriptionPeriods.status} <> 'paid')`,
        attempts: sql<number>`max(${subscriptionPeriods.attempts})`,
      })
      .from(subscriptionPeriods)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
      .where(and(eq(subscriptionPeriods.periodNumber, 2), benchSubscriptions)),
  );
  const renewalOrders = await one(
    db
      .select({
        orders: countRows(),
        paid: sql<number>`count(*) filter (where ${orders.status} = 'paid')`,
        subscriptions: countDistinct(orders.subscriptionId),
      })
      .from(orders)
      .where(and(eq(orders.createdAt, now), sql`${orders.userId} like 'bench-user-%'`)),
  );
  const renewalInvoices = await one(
    db
      .select({ invoices: countRows(), numbers: countDistinct(invoices.invoiceNumber) })
      .from(invoices)
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(and(eq(orders.createdAt, now), sql`${orders.userId} like 'bench-user-%'`)),
  );
  // A charge key is subscription:period:attempt. Two charges of one period would show as two keys
  // with the same subscription:period prefix; the keys themselves are the sandbox's primary key.
  const charges = await one(
    db
      .select({
        charges: countRows(),
        keys: countDistinct(sandboxCharges.chargeKey),
        periods: sql<number>`count(distinct split_part(${sandboxCharges.chargeKey}, ':', 1))`,
      })
      .from(sandboxCharges)
      .where(sql`split_part(${sandboxCharges.chargeKey}, ':', 2) = '2'`),
  );
  const periodKeys = await one(
    db.select({ keys: countRows(subscriptionPeriods.chargeKey), distinct: countDistinct(subscriptionPeriods.chargeKey) }).from(subscriptionPeriods),
  );
  const moved = await one(
    db
      .select({ n: countRows() })
      .from(subscriptions)
      .where(and(benchSubscriptions, eq(subscriptions.nextPeriodNumber, 3), eq(subscriptions.status, "active"))),
  );
  const emails = await one(
    db
      .select({ n: countRows() })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.kind, "order-confirmation"), sql`${outboxEmails.toAddress} like 'bench-%'`)),
  );
  const numbers = Object.fromEntries(
    Object.entries({
      ...periods,
      ...renewalOrders,
      ...renewalInvoices,
      ...charges,
      periodKeys: periodKeys.keys,
      periodKeysDistinct: periodKeys.distinct,
      moved: moved.n,
      emails: emails.n,
    }).map(([key, value]) => [key, Number(value)]),
  );
  const expectations: [string, boolean][] = [
    [`${count} periods 2 paid, none left in another state`, numbers.paid === count && numbers.other === 0],
    ["each paid on the first attempt", numbers.attempts === 1],
    [`${count} renewal orders, all paid, one per subscription`, numbers.orders === count && numbers.paid === count && numbers.subscriptions === count],
    [`${count} invoices with distinct numbers`, numbers.invoices === count && numbers.numbers === count],
    [`${count} charges for period 2, one per subscription (no key repeats)`, numbers.charges === count && numbers.keys === count && numbers.periods === count],
    ["every ledger charge key distinct", numbers.periodKeys === numbers.periodKeysDistinct],
    [`${count} subscriptions moved on to period 3`, numbers.moved === count],
    [`${count} order confirmations queued`, numbers.emails === count],
  ];
  return { numbers, expectations };
}
