import { desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { DatabaseOrTransaction } from "../db/transaction";
import { complaintAnswers, complaints, districts, invoices, orders, outboxEmails, subscriptions, users } from "../db/schema";
import { bidonBalance, type BidonBalance } from "../deliveries/index.server";
import { currentPromotionalConsent } from "../consent/index.server";

/** Most rows of each list the page shows; the export has them all. */
export const PICTURE_LIST_LIMIT = 50;

export interface CustomerProfile {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  phone: string | null;
  documentType: string | null;
  documentNumber: string | null;
  address: string | null;
  districtName: string | null;
  role: string;
  /** active | inactive | anonymized */
  status: string;
  createdAt: string;
}

export interface CustomerPicture {
  profile: CustomerProfile;
  orders: { id: string; orderNumber: string; createdAt: string; status: string; orderType: string; totalCents: number; guest: boolean }[];
  ordersTotal: number;
  subscriptions: { id: string; subscriptionNumber: string; status: string; frequency: string; amountCents: number; nextDeliveryDate: string | null }[];
  invoices: { id: string; orderId: string; invoiceNumber: string; documentType: string; totalCents: number; issuedAt: string; electronicStatus: string }[];
  bidones: BidonBalance;
  emails: { id: string; kind: string; subject: string; status: string; createdAt: string; sentAt: string | null }[];
  complaints: { id: string; sheetNumber: string; kind: string; filedAt: string; answered: boolean }[];
  /** The address's latest consent event; null when it never chose. */
  consent: { granted: boolean; source: string; at: string } | null;
}

export async function findCustomerProfile(db: DatabaseOrTransaction, userId: string): Promise<CustomerProfile | null> {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      emailVerified: users.emailVerified,
      phone: users.phone,
      documentType: users.documentType,
      documentNumber: users.documentNumber,
      address: users.address,
      districtName: districts.name,
      role: users.role,
      status: users.status,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(districts, eq(districts.id, users.districtId))
    .where(eq(users.id, userId));
  // Staff accounts are managed on /admin/equipo, not here.
  if (!row || row.role !== "customer") return null;
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/** The customer's orders: the account's, and guest orders placed with the account's e-mail. */
export function ownedOrders(profile: { id: string; email: string }): SQL {
  return or(eq(orders.userId, profile.id), sql`lower(${orders.customerEmail}) = ${profile.email.toLowerCase()}`)!;
}

/**
 * Issue 11: everything the shop knows about one customer, read in turn (a page load, not a
 * transaction, but one connection at a time is plenty): profile, orders, subscriptions,
 * comprobantes, bidones, e-mails sent, Libro de Reclamaciones sheets and promotional consent.
 */
export async function loadCustomerPicture(db: DatabaseOrTransaction, userId: string): Promise<CustomerPicture | null> {
  const profile = await findCustomerProfile(db, userId);
  if (!profile) return null;
  const email = profile.email.toLowerCase();
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(orders)
    .where(ownedOrders(profile));
  const orderRows = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      createdAt: orders.createdAt,
      status: orders.status,
      orderType: orders.orderType,
      totalCents: orders.totalCents,
      userId: orders.userId,
    })
    .from(orders)
    .where(ownedOrders(profile))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(PICTURE_LIST_LIMIT);
  const subscriptionRows = await db
    .select({
      id: subscriptions.id,
      subscriptionNumber: subscriptions.subscriptionNumber,
      status: subscriptions.status,
      frequency: subscriptions.frequency,
      amountCents: subscriptions.amountCents,
      nextDeliveryDate: subscriptions.nextDeliveryDate,
    })
    .from(subscriptions)
    .where(eq(subscriptions.userId, profile.id))
    .orderBy(desc(subscriptions.createdAt));
  const invoiceRows = await db
    .select({
      id: invoices.id,
      orderId: invoices.orderId,
      invoiceNumber: invoices.invoiceNumber,
      documentType: invoices.documentType,
      totalCents: invoices.totalCents,
      issuedAt: invoices.issuedAt,
      electronicStatus: invoices.electronicStatus,
    })
    .from(invoices)
    .where(inArray(invoices.orderId, db.select({ id: orders.id }).from(orders).where(ownedOrders(profile))))
    .orderBy(desc(invoices.issuedAt), desc(invoices.invoiceNumber))
    .limit(PICTURE_LIST_LIMIT);
  const bidones = await bidonBalance(db, { userId: profile.id, email });
  const emailRows = await db
    .select({
      id: outboxEmails.id,
      kind: outboxEmails.kind,
      subject: outboxEmails.subject,
      status: outboxEmails.status,
      createdAt: outboxEmails.createdAt,
      sentAt: outboxEmails.sentAt,
    })
    .from(outboxEmails)
    .where(sql`lower(${outboxEmails.toAddress}) = ${email}`)
    .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
    .limit(PICTURE_LIST_LIMIT);
  const complaintRows = await db
    .select({ id: complaints.id, sheetNumber: complaints.sheetNumber, kind: complaints.kind, filedAt: complaints.filedAt, answerId: complaintAnswers.id })
    .from(complaints)
    .leftJoin(complaintAnswers, eq(complaintAnswers.complaintId, complaints.id))
    .where(sql`lower(${complaints.email}) = ${email}`)
    .orderBy(desc(complaints.filedAt));
  const consent = await currentPromotionalConsent(db, email);
  return {
    profile,
    orders: orderRows.map(({ userId: owner, createdAt, ...row }) => ({ ...row, createdAt: createdAt.toISOString(), guest: owner === null })),
    ordersTotal: Number(counted?.total ?? 0),
    subscriptions: subscriptionRows,
    invoices: invoiceRows.map((row) => ({ ...row, issuedAt: row.issuedAt.toISOString() })),
    bidones,
    emails: emailRows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), sentAt: row.sentAt?.toISOString() ?? null })),
    complaints: complaintRows.map(({ answerId, filedAt, ...row }) => ({ ...row, filedAt: filedAt.toISOString(), answered: answerId !== null })),
    consent: consent ? { granted: consent.granted, source: consent.source, at: consent.at.toISOString() } : null,
  };
}
