import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { addDays, limaDayStart, limaToday } from "@core/lima-dates";
import { orderSummary } from "@core/pricing";
import type { Database } from "../client";
import { whatsappNumber, whatsappOptInText, WHATSAPP_OPT_IN_TEXT_VERSION } from "@core/whatsapp";
import {
  deliveries,
  districts,
  orderItems,
  orders,
  orderStatusChanges,
  payments,
  phoneProofs,
  users,
  whatsappConsentEvents,
  type DeliveryStatusEntry,
} from "../schema";
import { inTransaction } from "../transaction";
import { retimeDriverDay as retimeDemoRoute } from "../../deliveries/index.server";
import { catalogBySku, DEMO_CUSTOMER, DEMO_CUSTOMER_PHONE, DEMO_REPARTIDOR, insertDemoInvoice, priced, type DemoLine, type Transaction } from "./demo-accounts";

/**
 * Issue 10: a day of work for the back office on a fresh start — guest orders delivered today and
 * in the next days across several served districts, mornings and afternoons, most paid, two to be
 * paid in cash at the door. Issue 26: today's five are on the demo repartidor's route with the
 * demo customer's delivery of the day as its fourth stop, each with its point and arrival time.
 * Dates are relative to Lima's today when the demo is seeded. The districts' weekdays are not
 * followed here: the demo has to show work today whatever weekday it is started on.
 */
interface DemoDelivery {
  customer: { firstName: string; lastName: string; email: string; phone: string; dni: string };
  district: string;
  address: string;
  inDays: number;
  window: "manana" | "tarde";
  lines: DemoLine[];
  method: "card" | "yape" | "cash";
  /** Cash at the door: the order waits for its money, the driver collects it. */
  unpaid?: boolean;
  /** The delivery's path after `pending`. */
  path: string[];
  /** Stop number on the demo repartidor's route today. */
  routePosition?: number;
  /** The door on the map (issue 26). */
  point: { lat: number; lng: number };
}

const guest = (firstName: string, lastName: string, phone: string, dni: string) => ({
  firstName,
  lastName,
  email: `${firstName}.${lastName}@demo.pe`
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, ""),
  phone,
  dni,
});

export const DEMO_DELIVERIES: DemoDelivery[] = [
  {
    customer: guest("Lucía", "Torres", "987111201", "41234561"),
    district: "Miraflores",
    address: "Calle Schell 345, dpto. 801",
    point: { lat: -12.1206, lng: -77.0318 },
    inDays: 0,
    window: "manana",
    lines: [{ sku: "VA-BH20-R3", quantity: 1 }],
    method: "card",
    path: ["preparing", "scheduled"],
    routePosition: 1,
  },
  {
    customer: guest("Jorge", "Salazar", "987111202", "41234562"),
    district: "San Isidro",
    address: "Av. Camino Real 456, of. 302",
    point: { lat: -12.0963, lng: -77.0386 },
    inDays: 0,
    window: "manana",
    lines: [{ sku: "VA-P625-24", quantity: 2 }],
    method: "yape",
    path: ["preparing", "scheduled"],
    routePosition: 3,
  },
  {
    customer: guest("Sofía", "Ramírez", "987111203", "41234563"),
    district: "Santiago de Surco",
    address: "Jr. Monte Rosa 120",
    point: { lat: -12.112, lng: -76.9934 },
    inDays: 0,
    window: "tarde",
    lines: [{ sku: "VA-BO20-R4", quantity: 1 }],
    method: "cash",
    unpaid: true,
    path: ["preparing", "scheduled"],
    routePosition: 5,
  },
  {
    customer: guest("Rafael", "Mendoza", "987111204", "41234564"),
    district: "San Borja",
    address: "Av. San Luis 2010",
    point: { lat: -12.0905, lng: -76.999 },
    inDays: 0,
    window: "tarde",
    lines: [{ sku: "VA-F8L-04", quantity: 1 }],
    method: "card",
    path: ["preparing", "scheduled"],
    routePosition: 6,
  },
  {
    customer: guest("Carmen", "Rojas", "987111205", "41234565"),
    district: "Barranco",
    address: "Av. Grau 789",
    point: { lat: -12.1468, lng: -77.0199 },
    inDays: 0,
    window: "manana",
    lines: [{ sku: "VA-S1L-24", quantity: 1 }],
    method: "card",
    path: ["preparing", "scheduled"],
    routePosition: 2,
  },
  {
    customer: guest("Diego", "Vargas", "987111206", "41234566"),
    district: "Miraflores",
    address: "Av. Benavides 1555",
    point: { lat: -12.127, lng: -77.0136 },
    inDays: 1,
    window: "tarde",
    lines: [{ sku: "VA-CX20", quantity: 1 }],
    method: "card",
    path: [],
  },
  {
    customer: guest("Teresa", "Flores", "987111207", "41234567"),
    district: "Lince",
    address: "Av. Arequipa 2450",
    point: { lat: -12.0853, lng: -77.0345 },
    inDays: 1,
    window: "manana",
    lines: [{ sku: "VA-BH20-R3", quantity: 2 }],
    method: "cash",
    unpaid: true,
    path: [],
  },
  {
    customer: guest("Miguel", "Castillo", "987111208", "41234568"),
    district: "San Isidro",
    address: "Calle Las Begonias 670",
    point: { lat: -12.0927, lng: -77.0245 },
    inDays: 1,
    window: "tarde",
    lines: [{ sku: "VA-P625-12", quantity: 3 }],
    method: "yape",
    path: [],
  },
  {
    customer: guest("Patricia", "León", "987111209", "41234569"),
    district: "Santiago de Surco",
    address: "Av. Caminos del Inca 1800",
    point: { lat: -12.133, lng: -76.9905 },
    inDays: 2,
    window: "manana",
    lines: [{ sku: "VA-BO20-R10", quantity: 1 }],
    method: "card",
    path: [],
  },
  {
    customer: guest("Luis", "Paredes", "987111210", "41234570"),
    district: "San Borja",
    address: "Av. Aviación 3120",
    point: { lat: -12.0957, lng: -77.003 },
    inDays: 3,
    window: "tarde",
    lines: [{ sku: "VA-F8L-02", quantity: 2 }],
    method: "card",
    path: [],
  },
];

const HOUR_MS = 60 * 60 * 1000;

/** Once per database: the first demo guest's order is the key. */
export async function seedDemoDeliveries(db: Database, now: Date): Promise<{ seeded: boolean }> {
  const key = DEMO_DELIVERIES[0]!.customer.email;
  const [existing] = await db.select({ id: orders.id }).from(orders).where(eq(orders.customerEmail, key)).limit(1);
  if (existing) return { seeded: false };
  return inTransaction(db, async (tx) => {
    const names = [...new Set(DEMO_DELIVERIES.map((demo) => demo.district))];
    const byName = new Map(
      (await tx.select({ id: districts.id, name: districts.name }).from(districts).where(inArray(districts.name, names))).map((row) => [row.name, row]),
    );
    // A shop without the demo districts or the demo repartidor gets no demo work.
    if (byName.size < names.length) return { seeded: false };
    const [driver] = await tx.select({ id: users.id }).from(users).where(eq(users.email, DEMO_REPARTIDOR.email));
    if (!driver) return { seeded: false };
    const catalog = await catalogBySku(tx);
    const today = limaToday(now);
    for (const [index, demo] of DEMO_DELIVERIES.entries()) {
      await insertDemoOrder(tx, demo, {
        district: byName.get(demo.district)!,
        driverId: driver.id,
        today,
        createdAt: new Date(now.getTime() - (30 - index) * HOUR_MS),
        now,
        catalog,
      });
    }
    await putDemoCustomerOnRoute(tx, { driverId: driver.id, today });
    return { seeded: true };
  });
}

async function insertDemoOrder(
  tx: Transaction,
  demo: DemoDelivery,
  context: {
    district: { id: number; name: string };
    driverId: string;
    today: string;
    createdAt: Date;
    now: Date;
    catalog: Awaited<ReturnType<typeof catalogBySku>>;
  },
) {
  const { district, createdAt, catalog } = context;
  const lines = demo.lines.map((line) => priced(catalog, line));
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const summary = orderSummary(subtotal, "one-time", "mensual");
  const paidAt = demo.unpaid ? null : new Date(createdAt.getTime() + 5 * 60 * 1000);
  const orderPath = ["payment_created", ...(paidAt ? ["paid"] : []), ...(paidAt && demo.path.length > 0 ? ["processing"] : [])];
  const deliveryDate = addDays(context.today, demo.inDays);
  const [order] = await tx
    .insert(orders)
    .values({
      status: orderPath.at(-1)!,
      orderType: "one-time",
      customerFirstName: demo.customer.firstName,
      customerLastName: demo.customer.lastName,
      customerEmail: demo.customer.email,
      customerPhone: demo.customer.phone,
      documentType: "dni",
      documentNumber: demo.customer.dni,
      districtId: district.id,
      districtName: district.name,
      address: demo.address,
      addressLat: demo.point.lat,
      addressLng: demo.point.lng,
      deliveryDate,
      deliveryWindow: demo.window,
      subtotalCents: subtotal,
      discountCents: summary.discountCents,
      totalCents: summary.totalCents,
      paymentProvider: "sandbox",
      paymentMethod: demo.method,
      paidAt,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  await tx.insert(orderItems).values(lines.map((line) => ({ orderId: order!.id, ...line })));
  let from: string | null = null;
  let at = createdAt;
  for (const status of ["pending", ...orderPath]) {
    await tx
      .insert(orderStatusChanges)
      .values({ orderId: order!.id, fromStatus: from, toStatus: status, actor: status === "pending" ? "customer" : "system", createdAt: at });
    from = status;
    at = new Date(at.getTime() + 60 * 1000);
  }
  await tx.insert(payments).values({
    orderId: order!.id,
    provider: "sandbox",
    method: demo.method,
    status: paidAt ? "succeeded" : "pending",
    amountCents: summary.totalCents,
    providerReference: `demo-${randomUUID()}`,
    paymentCode: demo.method === "cash" ? String(20_000_000 + Number(demo.customer.dni.slice(-3)) * 7919).slice(0, 8) : null,
    settledAt: paidAt,
    createdAt,
    updatedAt: createdAt,
  });
  if (paidAt) await insertDemoInvoice(tx, order!, { paid: true, issuedAt: paidAt, dueDate: limaToday(paidAt) });
  const history: DeliveryStatusEntry[] = [{ status: "pending", timestamp: createdAt.toISOString(), note: null }];
  demo.path.forEach((status, step) =>
    history.push({
      status,
      timestamp: new Date(Math.min(createdAt.getTime() + (step + 1) * 4 * HOUR_MS, context.now.getTime())).toISOString(),
      note: null,
      actor: "system",
    }),
  );
  await tx.insert(deliveries).values({
    orderId: order!.id,
    districtId: district.id,
    districtName: district.name,
    address: demo.address,
    lat: demo.point.lat,
    lng: demo.point.lng,
    deliveryDate,
    deliveryWindow: demo.window,
    status: demo.path.at(-1) ?? "pending",
    statusHistory: history,
    assignedDriverId: demo.routePosition ? context.driverId : null,
    routePosition: demo.routePosition ?? null,
    createdAt,
    updatedAt: createdAt,
  });
}

/**
 * Issue 25: the customers of today's stops on the demo driver's route opted into WhatsApp notices,
 * so marking a stop "en camino" in the demo shows a message (in the local outbox). Issue 38: so did
 * the demo customer (cliente@demo.pe), whose number is proven her account's, so a newcomer can
 * write "lo de siempre" from it (`npm run whatsapp:say`, docs/whatsapp.md) and get her last order
 * back as a summary. Only numbers with no choice recorded yet: a demo customer's BAJA stays a BAJA
 * after a restart.
 */
export async function seedDemoWhatsappOptIns(db: Database, now: Date): Promise<number> {
  const customers = [
    ...DEMO_DELIVERIES.filter((demo) => demo.routePosition !== undefined).map((demo) => demo.customer),
    { email: DEMO_CUSTOMER.email, phone: DEMO_CUSTOMER_PHONE },
  ];
  const wanted = customers.map((customer) => ({ customer, phone: whatsappNumber(customer.phone)! }));
  const phones = wanted.map((entry) => entry.phone);
  const known = new Set(
    (await db.selectDistinct({ phone: whatsappConsentEvents.phone }).from(whatsappConsentEvents).where(inArray(whatsappConsentEvents.phone, phones))).map(
      (row) => row.phone,
    ),
  );
  const missing = wanted.filter((entry) => !known.has(entry.phone));
  if (missing.length === 0) return 0;
  const accounts = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        missing.map(({ customer }) => customer.email),
      ),
    );
  await db.insert(whatsappConsentEvents).values(
    missing.map(({ customer, phone }) => ({
      phone,
      granted: true,
      source: "demo",
      textShown: whatsappOptInText("Vida Alcalina"),
      textVersion: WHATSAPP_OPT_IN_TEXT_VERSION,
      email: customer.email,
      userId: accounts.find((account) => account.email === customer.email)?.id ?? null,
      createdAt: now,
    })),
  );
  // Issue 39: and each number is proven theirs (for their account and their orders), as a reply
  // to the shop's question would have made it, so the demo's messages reach them.
  for (const { customer, phone } of missing) {
    const account = accounts.find((row) => row.email === customer.email);
    const owned = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.customerEmail, customer.email), eq(orders.customerPhone, customer.phone)));
    const owners = [...(account ? [{ userId: account.id, orderId: null }] : []), ...owned.map((order) => ({ userId: account?.id ?? null, orderId: order.id }))];
    if (owners.length) await db.insert(phoneProofs).values(owners.map((owner) => ({ phone, ...owner, method: "demo", createdAt: now })));
  }
  return missing.length;
}

/** The demo customer's stop on today's demo route (issue 26): after three others, so "Faltan 3 paradas" shows. */
export const DEMO_CUSTOMER_ROUTE_POSITION = 4;

/**
 * Puts the demo customer's delivery of today (if the demo has one waiting) on the demo route as
 * its fourth stop, then times the route as planned before the shift (from its start, whatever the
 * hour of seeding), so every stop has its estimated arrival.
 */
async function putDemoCustomerOnRoute(tx: Transaction, context: { driverId: string; today: string }) {
  const [customerDelivery] = await tx
    .select({ id: deliveries.id })
    .from(deliveries)
    .innerJoin(orders, eq(orders.id, deliveries.orderId))
    .where(
      and(
        eq(orders.customerEmail, DEMO_CUSTOMER.email),
        eq(deliveries.deliveryDate, context.today),
        eq(deliveries.status, "scheduled"),
        isNull(deliveries.assignedDriverId),
      ),
    )
    .limit(1);
  if (customerDelivery) {
    await tx
      .update(deliveries)
      .set({ assignedDriverId: context.driverId, routePosition: DEMO_CUSTOMER_ROUTE_POSITION })
      .where(eq(deliveries.id, customerDelivery.id));
  }
  await retimeDemoRoute(tx, { date: context.today, driverId: context.driverId, now: limaDayStart(context.today) });
}
