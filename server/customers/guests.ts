import { asc, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { orders, users } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { ANONYMIZED_EMAIL_DOMAIN, anonymiseBlockers, blockerMessage, eraseSubjectData, lockSubjectOrders } from "./anonymise";
import { ordersOf, type DataSubject } from "./data-subject";
import { collectSubjectData, exportCounts, exportDocument } from "./export";
import { loadSubjectLists, type SubjectLists } from "./picture";

/**
 * Ley 29733 requests of guest buyers, who never had an account (decision 0061). A guest is named
 * in URLs by one of their orders' ids (`/admin/clientes/invitado/<order id>`), never by their
 * e-mail: the e-mail on that order is who they are, and every order without an account carrying
 * the same e-mail (any case) is theirs. When an account has that e-mail, the request is the
 * account's (its picture already counts those orders) and staff are sent there.
 */

export interface GuestProfile {
  kind: "guest";
  /** The order that names the guest in URLs. */
  reference: string;
  email: string;
  /** As typed on their latest order. */
  firstName: string;
  lastName: string;
  phone: string;
  documentType: string;
  documentNumber: string;
  firstOrderAt: string;
  /** The guest's data was anonymised: what is left is what the law keeps. */
  anonymized: boolean;
}

export interface GuestPicture extends SubjectLists {
  guest: GuestProfile;
}

export type GuestLookup<T> = { kind: "guest"; value: T } | { kind: "account"; userId: string } | null;

export function anonymizedGuestEmailFor(orderId: string): string {
  return `invitado-${orderId.toLowerCase()}@${ANONYMIZED_EMAIL_DOMAIN}`;
}

const isPlaceholder = (email: string) => email.toLowerCase().endsWith(`@${ANONYMIZED_EMAIL_DOMAIN}`);

/** Who the order names: its account, the account of its e-mail, or a guest (with the subject to read). */
async function resolveGuest(db: DatabaseOrTransaction, orderId: string): Promise<GuestLookup<DataSubject & { reference: string }>> {
  const [order] = await db.select({ userId: orders.userId, email: orders.customerEmail }).from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  if (order.userId) return { kind: "account", userId: order.userId };
  const email = order.email.toLowerCase();
  // Account e-mails are stored lower-cased (better-auth), so the unique index answers this.
  const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (account) return { kind: "account", userId: account.id };
  return { kind: "guest", value: { userId: null, email, reference: orderId } };
}

/** Who the guest behind an order is, as their latest order names them. */
export async function findGuest(db: DatabaseOrTransaction, orderId: string): Promise<GuestLookup<GuestProfile>> {
  const found = await resolveGuest(db, orderId);
  if (found?.kind !== "guest") return found;
  const subject = found.value;
  const [latest] = await db
    .select({
      firstName: orders.customerFirstName,
      lastName: orders.customerLastName,
      phone: orders.customerPhone,
      documentType: orders.documentType,
      documentNumber: orders.documentNumber,
    })
    .from(orders)
    .where(ordersOf(subject))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  const [first] = await db.select({ createdAt: orders.createdAt }).from(orders).where(ordersOf(subject)).orderBy(asc(orders.createdAt)).limit(1);
  if (!latest || !first) return null;
  return {
    kind: "guest",
    value: {
      kind: "guest",
      reference: orderId,
      email: subject.email,
      ...latest,
      firstOrderAt: first.createdAt.toISOString(),
      anonymized: isPlaceholder(subject.email),
    },
  };
}

/** The guest's picture for /admin/clientes/invitado/<order id>: the same lists as an account's. */
export async function loadGuestPicture(db: DatabaseOrTransaction, orderId: string): Promise<GuestLookup<GuestPicture>> {
  const found = await findGuest(db, orderId);
  if (found?.kind !== "guest") return found;
  const guest = found.value;
  return { kind: "guest", value: { ...(await loadSubjectLists(db, { userId: null, email: guest.email })), guest } };
}

/**
 * Ley 29733, right of access, for a guest: the account export's format and collection
 * (`collectSubjectData`), with a guest profile and no sessions or subscriptions (a guest has
 * neither). Read inside the transaction that writes its audit row, which names the order, not the
 * e-mail.
 */
export async function exportGuestData(db: Database, actor: StaffActor, orderId: string, now: Date) {
  return inTransaction(db, async (tx) => {
    const found = await resolveGuest(tx, orderId);
    if (found?.kind !== "guest") return found;
    const subject = found.value;
    const held = await collectSubjectData(tx, subject);
    const first = held.orders[0];
    const latest = held.orders[held.orders.length - 1];
    if (!first || !latest) return null;
    const profile = {
      kind: "guest" as const,
      email: subject.email,
      firstName: latest.customerFirstName,
      lastName: latest.customerLastName,
      phone: latest.customerPhone,
      documentType: latest.documentType,
      documentNumber: latest.documentNumber,
      firstOrderAt: first.createdAt.toISOString(),
    };
    const document = exportDocument(now, { profile, sessions: [], subscriptions: [], held });
    await recordStaffAction(tx, actor, { action: "guest.export", entityType: "guest", entityId: orderId, after: exportCounts(held) });
    return { kind: "guest" as const, value: document };
  });
}

export function guestExportFilename(orderId: string, now: Date): string {
  return `datos-invitado-${orderId.slice(0, 8)}-${now.toISOString().slice(0, 10)}.json`;
}

export type GuestAnonymiseResult =
  { ok: true; alreadyAnonymized: boolean } | { ok: false; reason: "not_found" | "refused"; message: string } | { ok: false; reason: "account"; userId: string };

/**
 * Ley 29733 anonymisation of a guest on request (decision 0061): the account anonymisation's rules
 * and placeholders (`eraseSubjectData`), one transaction. There is no customer row to lock first:
 * the guest's orders, then their deliveries, in id order (decision 0025), then the refusals under
 * those locks. The placeholder e-mail names the order the request came through. A second run (or a
 * double click that waited on the first's locks) finds the orders already rewritten and changes
 * nothing, audit row included.
 */
export async function anonymiseGuest(db: Database, actor: StaffActor, orderId: string, now: Date): Promise<GuestAnonymiseResult> {
  return inTransaction(db, async (tx): Promise<GuestAnonymiseResult> => {
    const found = await resolveGuest(tx, orderId);
    if (!found) return { ok: false, reason: "not_found", message: "No encontramos a ese comprador." };
    if (found.kind === "account") return { ok: false, reason: "account", userId: found.userId };
    const subject = found.value;
    if (isPlaceholder(subject.email)) return { ok: true, alreadyAnonymized: true };
    const orderIds = await lockSubjectOrders(tx, subject);
    if (orderIds.length === 0) return { ok: true, alreadyAnonymized: true };
    const refusal = blockerMessage(await anonymiseBlockers(tx, subject));
    if (refusal) return { ok: false, reason: "refused", message: refusal };
    await eraseSubjectData(tx, { subject, placeholder: anonymizedGuestEmailFor(orderId), orderIds, now });
    // No personal data in the audit row: the log is append-only and outlives this.
    await recordStaffAction(tx, actor, {
      action: "guest.anonymize",
      entityType: "guest",
      entityId: orderId,
      after: { status: "anonymized", orders: orderIds.length },
    });
    return { ok: true, alreadyAnonymized: false };
  });
}
