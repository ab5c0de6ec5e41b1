import { desc, eq, inArray, sql } from "drizzle-orm";
import type { DatabaseOrTransaction } from "../db/transaction";
import { districtsToJoin } from "../content/index.server";
import { abandonedCarts, complaintAnswers, complaints, contactMessages, deliveries, invoices, orders, outboxEmails, subscriptions, users } from "../db/schema";
import { bidonBalance, type BidonBalance } from "../deliveries/index.server";
import { garantiaSummary, type GarantiaSummary } from "../garantias/index.server";
import { promotionalConsentHistory } from "../consent/index.server";
import { providerErasureSummary, type ProviderErasureSummary } from "../payments/index.server";
import { whatsappStateOfSubject } from "../whatsapp/index.server";
import { ordersOf, type DataSubject } from "./data-subject";

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
  /** The address's pin (issue 26), when the customer placed one. */
  addressLat: number | null;
  addressLng: number | null;
  districtName: string | null;
  role: string;
  /** active | inactive | anonymized */
  status: string;
  createdAt: string;
}

/**
 * What the shop holds under one data subject's e-mail (and account, if any), as the back office
 * shows it: shared by an account's picture and a guest's (decision 0061).
 */
export interface SubjectLists {
  orders: { id: string; orderNumber: string; createdAt: string; status: string; orderType: string; totalCents: number; guest: boolean }[];
  ordersTotal: number;
  invoices: { id: string; orderId: string; invoiceNumber: string; documentType: string; totalCents: number; issuedAt: string; electronicStatus: string }[];
  bidones: BidonBalance;
  /** The bidón garantía (decision 0075): held, on its way, credit, the customer's choice and the latest returns. */
  garantia: GarantiaSummary;
  emails: { id: string; kind: string; subject: string; status: string; createdAt: string; sentAt: string | null }[];
  complaints: { id: string; sheetNumber: string; kind: string; filedAt: string; answered: boolean }[];
  deliveries: { id: string; deliveryNumber: string; deliveryDate: string; status: string }[];
  /** The address's latest consent event; null when it never chose. */
  consent: { granted: boolean; source: string; at: string } | null;
  /** Every consent event of the address, newest first. */
  consentHistory: { granted: boolean; source: string; at: string }[];
  contactMessages: { id: string; subject: string; createdAt: string }[];
  /** The cart saved for a reminder e-mail, if one is saved under the address. */
  abandonedCart: { subtotalCents: number; items: number; updatedAt: string; reminderSentAt: string | null } | null;
  /** Issue 25: each WhatsApp number of theirs, whether it gets notices, and its latest choice. */
  whatsapp: {
    phone: string;
    /** Issue 39: proven theirs; a profile's typed number is shown unproven. */
    proven: boolean;
    optedIn: boolean;
    latest: { granted: boolean; source: string; at: string; textShown: string } | null;
    unreachableSince: string | null;
  }[];
}

export interface CustomerPicture extends SubjectLists {
  profile: CustomerProfile;
  subscriptions: { id: string; subscriptionNumber: string; status: string; frequency: string; amountCents: number; nextDeliveryDate: string | null }[];
  /** Saved cards deleted (or still to delete) at the payment provider after an anonymisation. */
  cardErasures: ProviderErasureSummary | null;
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
      addressLat: users.addressLat,
      addressLng: users.addressLng,
      districtName: districtsToJoin.name,
      role: users.role,
      status: users.status,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(districtsToJoin, eq(districtsToJoin.id, users.districtId))
    .where(eq(users.id, userId));
  // Staff accounts are managed on /admin/equipo, not here.
  if (!row || row.role !== "customer") return null;
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * Issue 11: everything the shop knows about one customer, read in turn (a page load, not a
 * transaction, but one connection at a time is plenty): profile, orders, subscriptions,
 * comprobantes, bidones, e-mails sent, Libro de Reclamaciones sheets and promotional consent.
 */
export async function loadCustomerPicture(db: DatabaseOrTransaction, userId: string): Promise<CustomerPicture | null> {
  const profile = await findCustomerProfile(db, userId);
  if (!profile) return null;
  const lists = await loadSubjectLists(db, { userId: profile.id, email: profile.email }, profile.phone);
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
  return { ...lists, profile, subscriptions: subscriptionRows, cardErasures: await providerErasureSummary(db, profile.id) };
}

/** The lists of a subject's picture, read in turn (a page load, not a transaction; one connection at a time is plenty). */
export async function loadSubjectLists(db: DatabaseOrTransaction, subject: DataSubject, profilePhone: string | null = null): Promise<SubjectLists> {
  const email = subject.email.toLowerCase();
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(orders)
    .where(ordersOf(subject));
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
    .where(ordersOf(subject))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(PICTURE_LIST_LIMIT);
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
    .where(inArray(invoices.orderId, db.select({ id: orders.id }).from(orders).where(ordersOf(subject))))
    .orderBy(desc(invoices.issuedAt), desc(invoices.invoiceNumber))
    .limit(PICTURE_LIST_LIMIT);
  const bidones = await bidonBalance(db, { userId: subject.userId, email });
  const garantia = await garantiaSummary(db, { userId: subject.userId, email });
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
  const consentRows = await promotionalConsentHistory(db, email);
  const deliveryRows = await db
    .select({ id: deliveries.id, deliveryNumber: deliveries.deliveryNumber, deliveryDate: deliveries.deliveryDate, status: deliveries.status })
    .from(deliveries)
    .where(inArray(deliveries.orderId, db.select({ id: orders.id }).from(orders).where(ordersOf(subject))))
    .orderBy(desc(deliveries.deliveryDate), desc(deliveries.id))
    .limit(PICTURE_LIST_LIMIT);
  const consentHistory = consentRows.map((event) => ({ granted: event.granted, source: event.source, at: event.createdAt.toISOString() }));
  const messageRows = await db
    .select({ id: contactMessages.id, subject: contactMessages.subject, createdAt: contactMessages.createdAt })
    .from(contactMessages)
    .where(sql`lower(${contactMessages.email}) = ${email}`)
    .orderBy(desc(contactMessages.createdAt))
    .limit(PICTURE_LIST_LIMIT);
  const [cart] = await db
    .select({
      subtotalCents: abandonedCarts.subtotalCents,
      items: abandonedCarts.items,
      updatedAt: abandonedCarts.updatedAt,
      reminderSentAt: abandonedCarts.reminderSentAt,
    })
    .from(abandonedCarts)
    .where(eq(abandonedCarts.email, email));
  const orderIds = (await db.select({ id: orders.id }).from(orders).where(ordersOf(subject))).map((row) => row.id);
  const whatsapp = await whatsappStateOfSubject(db, { userId: subject.userId, email, orderIds }, profilePhone);
  return {
    whatsapp: whatsapp.map((number) => ({
      phone: number.phone,
      proven: number.proven,
      optedIn: number.optedIn,
      latest: number.latest ? { ...number.latest, at: number.latest.at.toISOString() } : null,
      unreachableSince: number.unreachable?.at.toISOString() ?? null,
    })),
    orders: orderRows.map(({ userId: owner, createdAt, ...row }) => ({ ...row, createdAt: createdAt.toISOString(), guest: owner === null })),
    ordersTotal: Number(counted?.total ?? 0),
    invoices: invoiceRows.map((row) => ({ ...row, issuedAt: row.issuedAt.toISOString() })),
    bidones,
    garantia,
    emails: emailRows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), sentAt: row.sentAt?.toISOString() ?? null })),
    complaints: complaintRows.map(({ answerId, filedAt, ...row }) => ({ ...row, filedAt: filedAt.toISOString(), answered: answerId !== null })),
    deliveries: deliveryRows,
    consent: consentHistory[0] ?? null,
    consentHistory,
    contactMessages: messageRows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    abandonedCart: cart
      ? {
          subtotalCents: cart.subtotalCents,
          items: cart.items.length,
          updatedAt: cart.updatedAt.toISOString(),
          reminderSentAt: cart.reminderSentAt?.toISOString() ?? null,
        }
      : null,
  };
}
