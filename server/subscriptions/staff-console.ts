import { and, asc, count, desc, eq, gte, lte, or, sql, type SQL } from "drizzle-orm";
import type { StaffSubscriptionFilters } from "@core/staff-subscription-filters";
import type { Database } from "../db/client";
import { deliveries, orders, payments, subscriptionPeriods, subscriptions, users } from "../db/schema";
import { findSubscriptionForUser, isSubscriptionId, type SubscriptionView } from "./customer-subscriptions";

export const STAFF_SUBSCRIPTIONS_PAGE_SIZE = 25;

export interface StaffSubscriptionRow {
  id: string;
  subscriptionNumber: string;
  status: string;
  frequency: string;
  /** weekly | biweekly | monthly (decision 0097). */
  deliveryCadence: string;
  billingMethod: string;
  districtName: string;
  customerName: string;
  customerEmail: string;
  amountCents: number;
  nextBillingDate: string | null;
  nextDeliveryDate: string | null;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The "Buscar" box: the subscription's number or id exactly, the customer's e-mail or name by their beginning. */
function searchCondition(query: string): SQL {
  const lower = query.toLowerCase();
  const arms: SQL[] = [];
  const number = /^(?:sus-?)?(\d{1,9})$/i.exec(query);
  if (number) arms.push(eq(subscriptions.subscriptionNumber, `SUS-${number[1]!.padStart(6, "0")}`));
  if (isSubscriptionId(query)) arms.push(eq(subscriptions.id, query));
  if (!/\s/.test(lower)) arms.push(sql`lower(${users.email}) like ${`${escapeLike(lower)}%`}`);
  if (!lower.includes("@")) {
    const words = lower.split(/\s+/).filter(Boolean);
    const each = words.map((word) => {
      const prefix = `${escapeLike(word)}%`;
      return or(sql`lower(${users.firstName}) like ${prefix}`, sql`lower(${users.lastName}) like ${prefix}`, sql`lower(${users.name}) like ${prefix}`)!;
    });
    arms.push(each.length === 1 ? each[0]! : and(...each)!);
  }
  return or(...arms)!;
}

function conditions(filters: StaffSubscriptionFilters): SQL | undefined {
  const where: SQL[] = [];
  if (filters.q) where.push(searchCondition(filters.q));
  if (filters.status) where.push(eq(subscriptions.status, filters.status));
  if (filters.plan) where.push(eq(subscriptions.frequency, filters.plan));
  if (filters.districtId) where.push(eq(subscriptions.districtId, filters.districtId));
  if (filters.billingMethod) where.push(eq(subscriptions.billingMethod, filters.billingMethod));
  if (filters.from) where.push(gte(subscriptions.nextBillingDate, filters.from));
  if (filters.to) where.push(lte(subscriptions.nextBillingDate, filters.to));
  return where.length > 0 ? and(...where) : undefined;
}

/** Issue 11: the subscriptions the filters match, next charge first, one page and how many in all (filtered in SQL). */
export async function searchStaffSubscriptions(
  db: Database,
  filters: StaffSubscriptionFilters,
  options: { page: number; pageSize?: number },
): Promise<{ rows: StaffSubscriptionRow[]; total: number }> {
  const pageSize = options.pageSize ?? STAFF_SUBSCRIPTIONS_PAGE_SIZE;
  const page = Math.max(1, Math.floor(options.page) || 1);
  const where = conditions(filters);
  const [[counted], rows] = await Promise.all([
    db.select({ total: count() }).from(subscriptions).innerJoin(users, eq(users.id, subscriptions.userId)).where(where),
    db
      .select({
        id: subscriptions.id,
        subscriptionNumber: subscriptions.subscriptionNumber,
        status: subscriptions.status,
        frequency: subscriptions.frequency,
        deliveryCadence: subscriptions.deliveryCadence,
        billingMethod: subscriptions.billingMethod,
        districtName: subscriptions.districtName,
        customerName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`,
        customerEmail: users.email,
        amountCents: subscriptions.amountCents,
        nextBillingDate: subscriptions.nextBillingDate,
        nextDeliveryDate: subscriptions.nextDeliveryDate,
      })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(where)
      .orderBy(sql`${subscriptions.nextBillingDate} asc nulls last`, asc(subscriptions.subscriptionNumber))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
  ]);
  return { rows, total: Number(counted?.total ?? 0) };
}

export interface StaffSubscriptionDetail {
  subscription: SubscriptionView;
  customer: { id: string; email: string; name: string; phone: string | null };
  nextPeriodNumber: number;
  periods: {
    periodNumber: number;
    billingDate: string;
    status: string;
    amountCents: number;
    attempts: number;
    nextAttemptDate: string | null;
    lastError: string | null;
    orderNumber: string | null;
  }[];
  payments: {
    id: string;
    orderNumber: string;
    provider: string;
    method: string | null;
    status: string;
    amountCents: number;
    createdAt: string;
    failureMessage: string | null;
  }[];
  deliveries: { id: string; deliveryNumber: string; deliveryDate: string; deliveryWindow: string; status: string; sequence: number | null }[];
}

/** Everything the staff detail page shows of one subscription; null for an unknown or malformed id. */
export async function findSubscriptionForStaff(db: Database, subscriptionId: string, now: Date = new Date()): Promise<StaffSubscriptionDetail | null> {
  if (!isSubscriptionId(subscriptionId)) return null;
  const [owner] = await db
    .select({
      userId: subscriptions.userId,
      nextPeriodNumber: subscriptions.nextPeriodNumber,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      phone: users.phone,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(subscriptions.id, subscriptionId));
  if (!owner) return null;
  const [subscription, periods, paymentRows, deliveryRows] = await Promise.all([
    findSubscriptionForUser(db, owner.userId, subscriptionId, now),
    db
      .select({
        periodNumber: subscriptionPeriods.periodNumber,
        billingDate: subscriptionPeriods.billingDate,
        status: subscriptionPeriods.status,
        amountCents: subscriptionPeriods.amountCents,
        attempts: subscriptionPeriods.attempts,
        nextAttemptDate: subscriptionPeriods.nextAttemptDate,
        lastError: subscriptionPeriods.lastError,
        orderNumber: orders.orderNumber,
      })
      .from(subscriptionPeriods)
      .leftJoin(orders, eq(orders.id, subscriptionPeriods.orderId))
      .where(eq(subscriptionPeriods.subscriptionId, subscriptionId))
      .orderBy(desc(subscriptionPeriods.periodNumber))
      .limit(36),
    db
      .select({
        id: payments.id,
        orderNumber: orders.orderNumber,
        provider: payments.provider,
        method: payments.method,
        status: payments.status,
        amountCents: payments.amountCents,
        createdAt: payments.createdAt,
        failureMessage: payments.failureMessage,
      })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(eq(orders.subscriptionId, subscriptionId))
      .orderBy(desc(payments.createdAt))
      .limit(36),
    db
      .select({
        id: deliveries.id,
        deliveryNumber: deliveries.deliveryNumber,
        deliveryDate: deliveries.deliveryDate,
        deliveryWindow: deliveries.deliveryWindow,
        status: deliveries.status,
        sequence: deliveries.subscriptionSequence,
      })
      .from(deliveries)
      .where(eq(deliveries.subscriptionId, subscriptionId))
      .orderBy(desc(deliveries.deliveryDate), desc(deliveries.deliveryNumber))
      .limit(36),
  ]);
  if (!subscription) return null;
  return {
    subscription,
    customer: { id: owner.userId, email: owner.email, name: `${owner.firstName} ${owner.lastName}`.trim(), phone: owner.phone },
    nextPeriodNumber: owner.nextPeriodNumber,
    periods,
    payments: paymentRows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    deliveries: deliveryRows,
  };
}
