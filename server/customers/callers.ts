import { createHash } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import { isPlainLine, isUuid } from "@core/input-schemas";
import { readDistrict } from "../content/index.server";
import type { Database } from "../db/client";
import { orderItems, orders, subscriptions, users } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { staffOrderSearchCondition } from "../orders/index.server";
import { ANONYMIZED_EMAIL_DOMAIN } from "./anonymise";
import { accountSearchCondition } from "./search";

/*
 * "Nuevo pedido" (issue 38, decision 0091): the office finds who is calling by phone, name, e-mail
 * or document, across customer accounts and earlier guest orders, and reads what it needs to type
 * the order: their contact data, the addresses they have had delivered to, and their last order.
 *
 * Who a caller is follows issue 39's rule: an account is found by its profile or by orders it owns;
 * a guest by the e-mail of orders no account owns. A guest order typed with an account's e-mail is
 * listed as a guest, never as that account (a typed e-mail proves nothing), so an order the office
 * types for that caller stays out of the account too.
 */

/** How many callers the search lists: the office picks one; the first is what Enter selects. */
export const CALLER_MATCHES_LIMIT = 8;

/** A caller as the office picks them: `cuenta:<user id>` or `invitado:<id of their latest order>`. */
export type CallerReference = `cuenta:${string}` | `invitado:${string}`;

export interface CallerMatch {
  reference: CallerReference;
  kind: "account" | "guest";
  fullName: string;
  email: string;
  phone: string | null;
  documentNumber: string | null;
  /** ISO instant of their latest order; null for an account that never ordered. */
  lastOrderAt: string | null;
  lastDistrictName: string | null;
}

/** An address the caller has had delivered to (or keeps on their profile or subscription). */
export interface CallerAddress {
  /** Stable while the address is the same text in the same district: what the form posts back. */
  key: string;
  districtId: number;
  districtName: string;
  address: string;
  reference: string;
  point: { lat: number; lng: number } | null;
  /** Where it was found, for the office: "Perfil", "Suscripción SUS-001002", "Pedido VA-001234". */
  source: string;
}

export interface CallerPicture {
  reference: CallerReference;
  kind: "account" | "guest";
  /** The account the order will belong to; null for a guest. */
  userId: string | null;
  contact: {
    nombre: string;
    apellido: string;
    correo: string;
    telefono: string;
    tipoDocumento: string;
    documento: string;
    ruc: string;
    razonSocial: string;
  };
  /** Most recently used first; at most ADDRESSES_LIMIT. */
  addresses: CallerAddress[];
  /** "Lo de siempre": the lines of their latest order that did not end cancelled or failed. */
  lastOrder: { orderNumber: string; createdAt: string; lines: { productId: number; variantId: number | null; quantity: number; title: string }[] } | null;
  /** Their subscriptions still running: this screen never creates one (decision 0091). */
  subscriptions: { subscriptionNumber: string; status: string; frequency: string; nextDeliveryDate: string | null }[];
}

const ADDRESSES_LIMIT = 6;
/** Orders that ended without reaching the customer are not where "lo de siempre" comes from. */
const ENDED_WITHOUT_DELIVERY = ["failed", "cancelled"];
const LIVE_SUBSCRIPTION_STATUSES = ["active", "paused", "past_due"];

const placeholderEmail = `%@${ANONYMIZED_EMAIL_DOMAIN}`;

/**
 * Callers matching what the office typed, most recently ordering first (an account that never
 * ordered after them). Accounts: active customer accounts whose profile matches (the /admin/clientes
 * rule) or that own a matching order. Guests: one row per e-mail of matching orders no account
 * owns, named by their latest order. Each arm is answered from the indexes the order and customer
 * searches already use.
 */
export async function findCallers(db: Database, query: string): Promise<CallerMatch[]> {
  const q = query.trim();
  // PostgreSQL refuses a NUL in text: a query with control characters finds nobody.
  if (!q || !isPlainLine(q)) return [];
  const matchingOrder = staffOrderSearchCondition(q);
  const accounts = sql`select 'cuenta:' || ${users.id} as reference, 'account' as kind, ${users.firstName} as first_name, ${users.lastName} as last_name,
      ${users.email} as email, ${users.phone} as phone, ${users.documentNumber} as document_number,
      latest.created_at as last_order_at, latest.district_name as last_district_name
    from ${users}
    left join lateral (select ${orders.createdAt} as created_at, ${orders.districtName} as district_name from ${orders}
      where ${orders.userId} = ${users.id} order by ${orders.createdAt} desc limit 1) latest on true
    where ${users.role} = 'customer' and ${users.status} = 'active'
      and (${accountSearchCondition(q)} or ${users.id} in (select ${orders.userId} from ${orders} where ${orders.userId} is not null and (${matchingOrder})))`;
  const guests = sql`select * from (
      select distinct on (lower(${orders.customerEmail})) 'invitado:' || ${orders.id}::text as reference, 'guest' as kind,
        ${orders.customerFirstName} as first_name, ${orders.customerLastName} as last_name, lower(${orders.customerEmail}) as email,
        ${orders.customerPhone} as phone, ${orders.documentNumber} as document_number, ${orders.createdAt} as last_order_at,
        ${orders.districtName} as last_district_name
      from ${orders}
      where ${orders.userId} is null and (${matchingOrder}) and lower(${orders.customerEmail}) not like ${placeholderEmail}
      order by lower(${orders.customerEmail}), ${orders.createdAt} desc, ${orders.id} desc
    ) guests`;
  const found = await db.execute(sql`select * from (${accounts} union all ${guests}) callers
    order by last_order_at desc nulls last, last_name, first_name, reference limit ${CALLER_MATCHES_LIMIT}`);
  return (found as unknown as { rows: CallerRow[] }).rows.map((row) => ({
    reference: row.reference,
    kind: row.kind,
    fullName: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    phone: row.phone,
    documentNumber: row.document_number,
    lastOrderAt: row.last_order_at ? new Date(row.last_order_at).toISOString() : null,
    lastDistrictName: row.last_district_name,
  }));
}

interface CallerRow {
  reference: CallerReference;
  kind: "account" | "guest";
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  document_number: string | null;
  last_order_at: Date | string | null;
  last_district_name: string | null;
}

/** `cuenta:<id>` or `invitado:<uuid>`; anything else is no caller. */
export function parseCallerReference(value: string | null | undefined): { kind: "account"; userId: string } | { kind: "guest"; orderId: string } | null {
  // Any id without spaces or control characters (PostgreSQL refuses a NUL in text).
  const match = /^(cuenta|invitado):(\S{1,200})$/.exec(value ?? "");
  if (!match || !isPlainLine(match[2]!)) return null;
  if (match[1] === "cuenta") return { kind: "account", userId: match[2]! };
  return isUuid(match[2]!) ? { kind: "guest", orderId: match[2]! } : null;
}

/**
 * What the office needs to type the caller's order, or null when the reference names nobody the
 * office may order for (an unknown, inactive or anonymised account; an order that has an account,
 * or whose guest was anonymised). Reads only.
 */
export async function loadCallerPicture(db: DatabaseOrTransaction, reference: string): Promise<CallerPicture | null> {
  const parsed = parseCallerReference(reference);
  if (!parsed) return null;
  if (parsed.kind === "account") {
    const [account] = await db.select().from(users).where(eq(users.id, parsed.userId));
    if (!account || account.role !== "customer" || account.status !== "active") return null;
    const own = eq(orders.userId, account.id);
    const [latest, addresses, lastOrder, running] = await Promise.all([
      latestOrder(db, own),
      addressesOf(db, own, { userId: account.id }),
      lastOrderLines(db, own),
      liveSubscriptions(db, account.id),
    ]);
    return {
      reference: `cuenta:${account.id}`,
      kind: "account",
      userId: account.id,
      contact: {
        nombre: account.firstName,
        apellido: account.lastName,
        correo: account.email,
        telefono: account.phone ?? latest?.customerPhone ?? "",
        tipoDocumento: account.documentType ?? latest?.documentType ?? "dni",
        documento: account.documentNumber ?? latest?.documentNumber ?? "",
        ruc: latest?.ruc ?? "",
        razonSocial: latest?.businessName ?? "",
      },
      addresses,
      lastOrder,
      subscriptions: running,
    };
  }
  const [named] = await db.select({ userId: orders.userId, email: orders.customerEmail }).from(orders).where(eq(orders.id, parsed.orderId));
  if (!named || named.userId !== null || named.email.toLowerCase().endsWith(`@${ANONYMIZED_EMAIL_DOMAIN}`)) return null;
  const theirs = and(isNull(orders.userId), sql`lower(${orders.customerEmail}) = ${named.email.toLowerCase()}`)!;
  const [latest, addresses, lastOrder] = await Promise.all([latestOrder(db, theirs), addressesOf(db, theirs, { userId: null }), lastOrderLines(db, theirs)]);
  if (!latest) return null;
  return {
    reference: `invitado:${latest.id}`,
    kind: "guest",
    userId: null,
    contact: {
      nombre: latest.customerFirstName,
      apellido: latest.customerLastName,
      correo: latest.customerEmail.toLowerCase(),
      telefono: latest.customerPhone,
      tipoDocumento: latest.documentType,
      documento: latest.documentNumber,
      ruc: latest.ruc ?? "",
      razonSocial: latest.businessName ?? "",
    },
    addresses,
    lastOrder,
    subscriptions: [],
  };
}

async function latestOrder(db: DatabaseOrTransaction, theirs: SQL) {
  const [row] = await db.select().from(orders).where(theirs).orderBy(desc(orders.createdAt), desc(orders.id)).limit(1);
  return row ?? null;
}

/** The key of an address: its district and its text, whatever the case and spacing. */
export function callerAddressKey(address: { districtId: number; address: string; reference: string }): string {
  const normal = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();
  return createHash("sha256")
    .update(`${address.districtId}|${normal(address.address)}|${normal(address.reference)}`)
    .digest("hex")
    .slice(0, 16);
}

/**
 * Distinct addresses, most recently used first: the orders' (with their reference and pin), then
 * an account's subscriptions and profile when they add one not seen yet.
 */
async function addressesOf(db: DatabaseOrTransaction, theirs: SQL, subject: { userId: string | null }): Promise<CallerAddress[]> {
  const recent = await db
    .select({
      orderNumber: orders.orderNumber,
      districtId: orders.districtId,
      districtName: orders.districtName,
      address: orders.address,
      reference: orders.deliveryNotes,
      lat: orders.addressLat,
      lng: orders.addressLng,
    })
    .from(orders)
    .where(theirs)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(50);
  const candidates: Omit<CallerAddress, "key">[] = recent.map((row) => ({
    districtId: row.districtId,
    districtName: row.districtName,
    address: row.address,
    reference: row.reference ?? "",
    point: pointOf(row.lat, row.lng),
    source: `Pedido ${row.orderNumber}`,
  }));
  if (subject.userId) {
    const [subscribed, profile] = await Promise.all([
      db
        .select({
          subscriptionNumber: subscriptions.subscriptionNumber,
          districtId: subscriptions.districtId,
          districtName: subscriptions.districtName,
          address: subscriptions.address,
          lat: subscriptions.addressLat,
          lng: subscriptions.addressLng,
        })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, subject.userId), notInArray(subscriptions.status, ["cancelled", "pending_payment"])))
        .orderBy(desc(subscriptions.createdAt)),
      db
        .select({ address: users.address, districtId: users.districtId, lat: users.addressLat, lng: users.addressLng })
        .from(users)
        .where(eq(users.id, subject.userId)),
    ]);
    for (const row of subscribed)
      candidates.push({
        districtId: row.districtId,
        districtName: row.districtName,
        address: row.address,
        reference: "",
        point: pointOf(row.lat, row.lng),
        source: `Suscripción ${row.subscriptionNumber}`,
      });
    const own = profile[0];
    if (own?.address && own.districtId !== null) {
      // The profile keeps the district's id only.
      const district = await readDistrict(db, own.districtId);
      if (district)
        candidates.push({
          districtId: own.districtId,
          districtName: district.name,
          address: own.address,
          reference: "",
          point: pointOf(own.lat, own.lng),
          source: "Perfil",
        });
    }
  }
  const seen = new Set<string>();
  const addresses: CallerAddress[] = [];
  for (const candidate of candidates) {
    // The same street typed with and without a reference is one address: the one with it is kept.
    const key = callerAddressKey(candidate);
    const bare = callerAddressKey({ ...candidate, reference: "" });
    if (seen.has(key) || (candidate.reference === "" && seen.has(`bare:${bare}`))) continue;
    seen.add(key);
    seen.add(`bare:${bare}`);
    addresses.push({ key, ...candidate });
    if (addresses.length === ADDRESSES_LIMIT) break;
  }
  return addresses;
}

function pointOf(lat: number | null, lng: number | null) {
  return lat !== null && lng !== null ? { lat, lng } : null;
}

async function lastOrderLines(db: DatabaseOrTransaction, theirs: SQL): Promise<CallerPicture["lastOrder"]> {
  const [order] = await db
    .select({ id: orders.id, orderNumber: orders.orderNumber, createdAt: orders.createdAt })
    .from(orders)
    .where(and(theirs, notInArray(orders.status, ENDED_WITHOUT_DELIVERY)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  if (!order) return null;
  const items = await db
    .select({
      productId: orderItems.productId,
      variantId: orderItems.variantId,
      quantity: orderItems.quantity,
      title: orderItems.title,
      variantTitle: orderItems.variantTitle,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));
  return {
    orderNumber: order.orderNumber,
    createdAt: order.createdAt.toISOString(),
    lines: items.map((item) => ({
      productId: item.productId,
      variantId: item.variantId,
      quantity: item.quantity,
      title: item.variantTitle ? `${item.title} (${item.variantTitle})` : item.title,
    })),
  };
}

async function liveSubscriptions(db: DatabaseOrTransaction, userId: string): Promise<CallerPicture["subscriptions"]> {
  const rows = await db
    .select({
      subscriptionNumber: subscriptions.subscriptionNumber,
      status: subscriptions.status,
      frequency: subscriptions.frequency,
      nextDeliveryDate: subscriptions.nextDeliveryDate,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, LIVE_SUBSCRIPTION_STATUSES)))
    .orderBy(desc(subscriptions.createdAt));
  return rows.map((row) => ({ ...row, nextDeliveryDate: row.nextDeliveryDate ?? null }));
}
