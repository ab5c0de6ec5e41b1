import { randomUUID } from "node:crypto";
import { countDemoBidonesHeldBeforeTheLedger } from "./bidones-before-ledger";
import { and, eq, isNull, sql } from "drizzle-orm";
import { addDays, limaToday } from "@core/lima-dates";
import { igvBreakdown, orderSummary } from "@core/pricing";
import { nextMonthlyDeliveryDate } from "@core/subscription-dates";
import { STAFF_ROLES } from "@core/staff-roles";
import { hashPassword } from "../../accounts/index.server";
import { formatInvoiceNumber, invoiceSeriesFor } from "../../invoices/index.server";
import type { Database } from "../client";
import {
  siteSettings,
  accounts,
  deliveries,
  districts,
  invoiceSeries,
  invoices,
  orderItems,
  orders,
  orderStatusChanges,
  organizations,
  payments,
  productVariants,
  products,
  paymentMethods,
  subscriptionEvents,
  subscriptionItems,
  subscriptionPeriods,
  subscriptions,
  users,
  type DeliveryStatusEntry,
} from "../schema";
import { inTransaction } from "../transaction";
import { DEMO_ADMIN, DEMO_CUSTOMER, DEMO_OPERACIONES, DEMO_REPARTIDOR, DEMO_STAFF } from "./demo-credentials";
import { seedDemoDeliveries, seedDemoWhatsappOptIns } from "./demo-deliveries";

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export { DEMO_ADMIN, DEMO_CUSTOMER, DEMO_OPERACIONES, DEMO_REPARTIDOR };

/** The demo customer's mobile, as her profile and orders store it (9 digits); proven hers for WhatsApp (issue 38). */
export const DEMO_CUSTOMER_PHONE = "987654321";

/** Issue 26: the demo customer's door on the map (Av. José Larco 1234, Miraflores). */
export const DEMO_CUSTOMER_POINT = { lat: -12.1249, lng: -77.0293 };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Adds the demo customer and staff user, once (keyed on the customer's email, so databases seeded
 * before accounts existed get them on their next start). Dates are relative to `now` in Lima, so
 * the upcoming deliveries are upcoming whenever the demo is started.
 */
export async function seedDemoAccounts(db: Database, now: Date = new Date()): Promise<{ seeded: boolean }> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_CUSTOMER.email));
  await seedDemoStaff(db, now);
  if (!existing) await seedDemoCustomerAndAdmin(db, now);
  // After the customer's history (whose invoice numbers stay as they were), keyed on its own
  // orders, so demo databases from before the back office get the day's work on their next start.
  await seedDemoDeliveries(db, now);
  await seedDemoWhatsappOptIns(db, now);
  await countDemoBidonesHeldBeforeTheLedger(db);
  // Issue 38: the demo shop's Yape for pago contra entrega (a real shop types its own in Ajustes).
  await db
    .update(siteSettings)
    .set({ doorYapeNumber: "987 654 321" })
    .where(and(eq(siteSettings.id, 1), isNull(siteSettings.doorYapeNumber)));
  return { seeded: !existing };
}

async function seedDemoCustomerAndAdmin(db: Database, now: Date): Promise<void> {
  const [customerHash, adminHash] = await Promise.all([hashPassword(DEMO_CUSTOMER.password), hashPassword(DEMO_ADMIN.password)]);
  await inTransaction(db, async (tx) => {
    const [miraflores] = await tx.select().from(districts).where(eq(districts.name, "Miraflores"));
    if (!miraflores) return; // A shop without the demo districts gets no demo history.
    const customerId = await insertUser(tx, { ...DEMO_CUSTOMER, role: "customer", passwordHash: customerHash, districtId: miraflores.id, now });
    await insertUser(tx, { ...DEMO_ADMIN, role: "admin", passwordHash: adminHash, districtId: null, now });
    await seedCustomerHistory(tx, { userId: customerId, district: miraflores, now });
  });
}

/** The demo accounts of the staff roles besides the admin, each keyed on its own e-mail (demo databases from before issue 10 get them too). */
async function seedDemoStaff(db: Database, now: Date): Promise<void> {
  for (const role of STAFF_ROLES.filter((role) => role !== "admin")) {
    const member = DEMO_STAFF[role];
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, member.email));
    if (existing) continue;
    const passwordHash = await hashPassword(member.password);
    await inTransaction(db, (tx) => insertUser(tx, { ...member, role, passwordHash, districtId: null, now }));
  }
}

async function insertUser(
  tx: Transaction,
  user: { email: string; firstName: string; lastName: string; role: string; passwordHash: string; districtId: number | null; now: Date },
): Promise<string> {
  const id = randomUUID();
  const isCustomer = user.role === "customer";
  await tx.insert(users).values({
    id,
    name: `${user.firstName} ${user.lastName}`,
    email: user.email,
    emailVerified: true,
    // The demo customer's password is the one published with the demo: counted as the owner's
    // (decision 0072), so a guest checkout with cliente@demo.pe is filed under the account.
    ownershipProvenAt: isCustomer ? user.now : null,
    firstName: user.firstName,
    lastName: user.lastName,
    documentType: isCustomer ? "dni" : null,
    documentNumber: isCustomer ? "45678912" : null,
    phone: isCustomer ? DEMO_CUSTOMER_PHONE : null,
    address: isCustomer ? "Av. José Larco 1234, dpto. 502" : null,
    addressLat: isCustomer ? DEMO_CUSTOMER_POINT.lat : null,
    addressLng: isCustomer ? DEMO_CUSTOMER_POINT.lng : null,
    districtId: user.districtId,
    role: user.role,
    createdAt: new Date(user.now.getTime() - 200 * DAY_MS),
  });
  await tx.insert(accounts).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: user.passwordHash });
  return id;
}

export interface DemoLine {
  sku: string;
  quantity: number;
}

interface DemoOrder {
  daysAgo: number;
  lines: DemoLine[];
  type?: "one-time" | "subscription";
  /** The order's path through the state machine, first state excluded. */
  path: string[];
  method?: "card" | "yape" | "cash";
  ruc?: { number: string; businessName: string };
  /** Delivery date relative to today and its path; none for orders that never shipped. */
  delivery?: { inDays: number; path: string[] };
  /** An unpaid invoice: due in `dueInDays` (negative: overdue). */
  unpaidInvoiceDueInDays?: number;
}

const SUBSCRIPTION_LINES: DemoLine[] = [
  { sku: "VA-BH20-R3", quantity: 1 },
  { sku: "VA-P625-12", quantity: 1 },
];

/** 14 orders across every status, their deliveries in every tab, paid, pending and overdue invoices. */
const DEMO_ORDERS: DemoOrder[] = [
  {
    daysAgo: 150,
    lines: [{ sku: "VA-CX20", quantity: 1 }],
    path: ["payment_created", "paid", "processing", "shipped", "delivered"],
    delivery: { inDays: -147, path: ["preparing", "scheduled", "shipped", "in_transit", "delivered"] },
  },
  {
    daysAgo: 120,
    lines: SUBSCRIPTION_LINES,
    type: "subscription",
    path: ["payment_created", "paid", "processing", "shipped", "delivered"],
    delivery: { inDays: -117, path: ["preparing", "scheduled", "shipped", "in_transit", "delivered"] },
  },
  {
    daysAgo: 92,
    lines: SUBSCRIPTION_LINES,
    type: "subscription",
    path: ["payment_created", "paid", "processing", "shipped", "delivered"],
    delivery: { inDays: -89, path: ["preparing", "scheduled", "shipped", "in_transit", "delivered"] },
  },
  {
    daysAgo: 80,
    lines: [{ sku: "VA-BO20-R4", quantity: 1 }],
    ruc: { number: "20131312955", businessName: "Estudio Fernández S.A.C." },
    path: ["payment_created", "paid", "processing", "shipped", "delivered"],
    delivery: { inDays: -78, path: ["preparing", "scheduled", "shipped", "in_transit", "delivered"] },
  },
  {
    daysAgo: 70,
    lines: [{ sku: "VA-F8L-04", quantity: 1 }],
    path: ["payment_created", "paid", "processing", "shipped", "delivered", "refunded"],
    delivery: { inDays: -68, path: ["preparing", "scheduled", "shipped", "in_transit", "delivered"] },
  },
  {
    daysAgo: 62,
    lines: SUBSCRIPTION_LINES,
    type: "subscription",
    path: ["payment_created", "paid", "processing", "shipped", "delivered"],
    delivery: { inDays: -59, path: ["preparing", "scheduled", "shipped", "in_transit", "delivered"] },
  },
  { daysAgo: 45, lines: [{ sku: "VA-S1L-24", quantity: 1 }], path: ["payment_created", "failed"] },
  { daysAgo: 40, lines: [{ sku: "VA-P625-24", quantity: 1 }], method: "cash", path: ["payment_created", "cancelled"] },
  {
    daysAgo: 32,
    lines: SUBSCRIPTION_LINES,
    type: "subscription",
    path: ["payment_created", "paid", "processing", "shipped", "delivered"],
    delivery: { inDays: -29, path: ["preparing", "scheduled", "shipped", "in_transit", "delivered"] },
  },
  {
    daysAgo: 20,
    lines: [{ sku: "VA-BO20-R10", quantity: 1 }],
    ruc: { number: "20131312955", businessName: "Estudio Fernández S.A.C." },
    method: "yape",
    path: ["payment_created"],
    unpaidInvoiceDueInDays: -6,
    delivery: { inDays: -17, path: ["preparing", "scheduled", "shipped", "in_transit", "delivered"] },
  },
  {
    daysAgo: 4,
    lines: [{ sku: "VA-S1L-12", quantity: 2 }],
    path: ["payment_created", "paid", "processing", "shipped"],
    delivery: { inDays: 0, path: ["preparing", "scheduled", "shipped", "in_transit"] },
  },
  {
    daysAgo: 3,
    lines: [{ sku: "VA-F8L-02", quantity: 2 }],
    path: ["payment_created", "paid", "processing"],
    delivery: { inDays: 0, path: ["preparing", "scheduled"] },
  },
  {
    daysAgo: 2,
    lines: SUBSCRIPTION_LINES,
    type: "subscription",
    path: ["payment_created", "paid", "processing"],
    delivery: { inDays: 1, path: ["preparing", "scheduled"] },
  },
  {
    daysAgo: 1,
    lines: [{ sku: "VA-P625-48", quantity: 1 }],
    method: "cash",
    path: ["payment_created"],
    unpaidInvoiceDueInDays: 2,
    delivery: { inDays: 5, path: [] },
  },
];

async function seedCustomerHistory(tx: Transaction, context: { userId: string; district: { id: number; name: string }; now: Date }) {
  const { userId, district, now } = context;
  const today = limaToday(now);
  const catalog = await catalogBySku(tx);
  const [organization] = await tx.select({ id: organizations.id }).from(organizations).orderBy(organizations.id).limit(1);

  const subscriptionLines = SUBSCRIPTION_LINES.map((line) => priced(catalog, line));
  const monthlySubtotal = subscriptionLines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const monthly = orderSummary(monthlySubtotal, "subscription", "mensual");
  const firstSubscriptionOrder = DEMO_ORDERS.find((order) => order.type === "subscription")!;
  const [subscription] = await tx
    .insert(subscriptions)
    .values({
      userId,
      status: "active",
      frequency: "mensual",
      discountRateBasisPoints: 500,
      baseAmountCents: monthlySubtotal,
      amountCents: monthly.totalCents,
      districtId: district.id,
      districtName: district.name,
      address: "Av. José Larco 1234, dpto. 502",
      addressLat: DEMO_CUSTOMER_POINT.lat,
      addressLng: DEMO_CUSTOMER_POINT.lng,
      deliveryWindow: "manana",
      organizationId: organization?.id ?? null,
      startDate: addDays(today, -firstSubscriptionOrder.daysAgo),
      nextBillingDate: addDays(today, 28),
      // The delivery of tomorrow exists already (the fifth); this is the first one still to create.
      nextDeliveryDate: nextMonthlyDeliveryDate(addDays(today, 1), [1, 3, 5]),
      nextPeriodNumber: 6,
      deliveriesMade: 5,
      paymentProvider: "sandbox",
      cardBrand: "Visa",
      cardLast4: "1111",
      createdAt: new Date(now.getTime() - firstSubscriptionOrder.daysAgo * DAY_MS),
    })
    .returning({ id: subscriptions.id });
  const [card] = await tx
    .insert(paymentMethods)
    .values({
      userId,
      provider: "sandbox",
      providerCardId: "sbx_crd_demo_1111",
      brand: "Visa",
      last4: "1111",
      createdAt: new Date(now.getTime() - firstSubscriptionOrder.daysAgo * DAY_MS),
    })
    .returning({ id: paymentMethods.id });
  await tx.update(subscriptions).set({ paymentMethodId: card!.id }).where(eq(subscriptions.id, subscription!.id));
  await tx.insert(subscriptionItems).values(
    subscriptionLines.map((line) => ({
      subscriptionId: subscription!.id,
      productId: line.productId,
      variantId: line.variantId,
      title: line.title,
      variantTitle: line.variantTitle,
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
    })),
  );
  await tx.insert(subscriptionEvents).values([
    {
      subscriptionId: subscription!.id,
      kind: "activated",
      description: "Suscripción mensual activada",
      actor: "customer",
      createdAt: new Date(now.getTime() - firstSubscriptionOrder.daysAgo * DAY_MS),
    },
    {
      subscriptionId: subscription!.id,
      kind: "organization_changed",
      description: "Organización apoyada elegida",
      actor: "customer",
      createdAt: new Date(now.getTime() - (firstSubscriptionOrder.daysAgo - 1) * DAY_MS),
    },
  ]);

  let subscriptionSequence = 0;
  for (const demo of DEMO_ORDERS) {
    const createdAt = new Date(now.getTime() - demo.daysAgo * DAY_MS);
    const lines = demo.lines.map((line) => priced(catalog, line));
    const subtotal = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
    const type = demo.type ?? "one-time";
    const summary = orderSummary(subtotal, type, "mensual");
    const method = demo.method ?? "card";
    const paid = demo.path.includes("paid");
    const deliveryDate = demo.delivery ? addDays(today, demo.delivery.inDays) : addDays(today, -demo.daysAgo + 2);
    const [order] = await tx
      .insert(orders)
      .values({
        userId,
        subscriptionId: type === "subscription" ? subscription!.id : null,
        status: demo.path.at(-1) ?? "pending",
        orderType: type,
        subscriptionFrequency: type === "subscription" ? "mensual" : null,
        customerFirstName: DEMO_CUSTOMER.firstName,
        customerLastName: DEMO_CUSTOMER.lastName,
        customerEmail: DEMO_CUSTOMER.email,
        customerPhone: DEMO_CUSTOMER_PHONE,
        documentType: "dni",
        documentNumber: "45678912",
        ruc: demo.ruc?.number ?? null,
        businessName: demo.ruc?.businessName ?? null,
        districtId: district.id,
        districtName: district.name,
        address: "Av. José Larco 1234, dpto. 502",
        addressLat: DEMO_CUSTOMER_POINT.lat,
        addressLng: DEMO_CUSTOMER_POINT.lng,
        deliveryDate,
        deliveryWindow: "manana",
        subtotalCents: subtotal,
        discountCents: summary.discountCents,
        totalCents: summary.totalCents,
        paymentProvider: "sandbox",
        paymentMethod: method,
        paidAt: paid ? new Date(createdAt.getTime() + 5 * 60 * 1000) : null,
        createdAt,
        updatedAt: createdAt,
      })
      .returning();
    await tx.insert(orderItems).values(lines.map((line) => ({ orderId: order!.id, ...line })));
    if (type === "subscription") {
      // The period ledger of the demo subscription: one paid period per monthly order.
      const periodNumber = subscriptionSequence + 1;
      await tx.insert(subscriptionPeriods).values({
        subscriptionId: subscription!.id,
        periodNumber,
        billingDate: limaToday(createdAt),
        status: "paid",
        amountCents: summary.totalCents,
        attempts: 1,
        chargeKey: `${subscription!.id}:${periodNumber}:1`,
        providerChargeId: `sbx_chr_demo_${periodNumber}`,
        orderId: order!.id,
        createdAt,
        updatedAt: createdAt,
      });
    }
    let from: string | null = null;
    let at = createdAt;
    for (const status of ["pending", ...demo.path]) {
      await tx
        .insert(orderStatusChanges)
        .values({ orderId: order!.id, fromStatus: from, toStatus: status, actor: status === "pending" ? "customer" : "system", createdAt: at });
      from = status;
      at = new Date(at.getTime() + 6 * 60 * 60 * 1000);
    }
    await tx.insert(payments).values({
      orderId: order!.id,
      provider: "sandbox",
      method,
      status: paid ? "succeeded" : demo.path.at(-1) === "failed" ? "failed" : demo.path.at(-1) === "cancelled" ? "expired" : "pending",
      amountCents: summary.totalCents,
      providerReference: `demo-${randomUUID()}`,
      paymentCode: method === "card" ? null : String(10_000_000 + demo.daysAgo * 7919).slice(0, 8),
      settledAt: paid ? order!.paidAt : null,
      createdAt,
      updatedAt: createdAt,
    });
    if (paid || demo.unpaidInvoiceDueInDays !== undefined) {
      await insertDemoInvoice(tx, order!, {
        paid,
        issuedAt: createdAt,
        dueDate: demo.unpaidInvoiceDueInDays === undefined ? limaToday(createdAt) : addDays(today, demo.unpaidInvoiceDueInDays),
      });
    }
    if (demo.delivery) {
      const history: DeliveryStatusEntry[] = [{ status: "pending", timestamp: createdAt.toISOString(), note: null }];
      let stepAt = createdAt.getTime();
      for (const status of demo.delivery.path) {
        stepAt += 12 * 60 * 60 * 1000;
        history.push({
          status,
          timestamp: new Date(Math.min(stepAt, now.getTime())).toISOString(),
          note: status === "in_transit" ? "El repartidor salió con tu pedido" : null,
        });
      }
      const sequence = type === "subscription" ? (subscriptionSequence += 1) : null;
      await tx.insert(deliveries).values({
        orderId: order!.id,
        subscriptionId: sequence ? subscription!.id : null,
        subscriptionSequence: sequence,
        districtId: district.id,
        districtName: district.name,
        address: "Av. José Larco 1234, dpto. 502",
        lat: DEMO_CUSTOMER_POINT.lat,
        lng: DEMO_CUSTOMER_POINT.lng,
        deliveryDate,
        deliveryWindow: "manana",
        status: demo.delivery.path.at(-1) ?? "pending",
        statusHistory: history,
        trackingCode: demo.delivery.path.includes("shipped") ? `VA-TRK-${1000 + demo.daysAgo}` : null,
        notes: "Dejar en recepción",
        createdAt,
        updatedAt: createdAt,
      });
    }
  }
  if (subscription) {
    const [first] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.subscriptionId, subscription.id)).orderBy(orders.createdAt).limit(1);
    await tx
      .update(subscriptions)
      .set({ orderId: first?.id ?? null })
      .where(eq(subscriptions.id, subscription.id));
  }
}

export async function insertDemoInvoice(tx: Transaction, order: typeof orders.$inferSelect, details: { paid: boolean; issuedAt: Date; dueDate: string }) {
  const { series, documentType } = invoiceSeriesFor(order);
  const [counter] = await tx
    .insert(invoiceSeries)
    .values({ series, lastNumber: 1 })
    .onConflictDoUpdate({ target: invoiceSeries.series, set: { lastNumber: sql`${invoiceSeries.lastNumber} + 1` } })
    .returning({ number: invoiceSeries.lastNumber });
  const { taxableCents, igvCents } = igvBreakdown(order.totalCents);
  await tx.insert(invoices).values({
    orderId: order.id,
    documentType,
    series,
    number: counter!.number,
    invoiceNumber: formatInvoiceNumber(series, counter!.number),
    status: details.paid ? "paid" : "pending",
    totalCents: order.totalCents,
    taxableCents,
    igvCents,
    customerName: order.ruc ? (order.businessName ?? "") : `${order.customerFirstName} ${order.customerLastName}`,
    customerDocumentType: order.ruc ? "ruc" : order.documentType,
    customerDocumentNumber: order.ruc ?? order.documentNumber,
    paymentMethod: order.paymentMethod,
    issuedAt: details.issuedAt,
    dueDate: details.dueDate,
    paidAt: details.paid ? order.paidAt : null,
    // Demo documents never go to SUNAT (decision 0045).
    electronicStatus: "local",
  });
}

type CatalogEntry = { productId: number; variantId: number | null; title: string; variantTitle: string | null; unitPriceCents: number; sku: string };

export async function catalogBySku(tx: Transaction): Promise<Map<string, CatalogEntry>> {
  const entries = new Map<string, CatalogEntry>();
  const allProducts = new Map((await tx.select().from(products)).map((product) => [product.id, product]));
  for (const product of allProducts.values()) {
    if (product.sku && product.priceCents !== null)
      entries.set(product.sku, {
        productId: product.id,
        variantId: null,
        title: product.title,
        variantTitle: null,
        unitPriceCents: product.priceCents,
        sku: product.sku,
      });
  }
  for (const variant of await tx.select().from(productVariants)) {
    const product = allProducts.get(variant.productId);
    if (product && variant.sku)
      entries.set(variant.sku, {
        productId: product.id,
        variantId: variant.id,
        title: product.title,
        variantTitle: variant.title,
        unitPriceCents: variant.priceCents,
        sku: variant.sku,
      });
  }
  return entries;
}

export function priced(catalog: Map<string, CatalogEntry>, line: DemoLine) {
  const entry = catalog.get(line.sku);
  if (!entry) throw new Error(`Demo data names an unknown SKU: ${line.sku}`);
  return {
    productId: entry.productId,
    variantId: entry.variantId,
    title: entry.title,
    variantTitle: entry.variantTitle,
    sku: entry.sku,
    unitPriceCents: entry.unitPriceCents,
    quantity: line.quantity,
    lineTotalCents: entry.unitPriceCents * line.quantity,
  };
}
