import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { isUuid } from "@core/input-schemas";
import type { Database } from "../db/client";
import { abandonedCarts, complaintAnonymisations, complaints, contactMessages, orders, promotionalConsentEvents, users } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { recordStaffAction, type StaffActor } from "../audit/index.server";
import { ANONYMIZED_EMAIL_DOMAIN, anonymiseBlockers, blockerMessage, eraseSubjectData, lockSubjectOrders } from "./anonymise";
import type { DataSubject } from "./data-subject";
import { collectSubjectData, exportCounts, exportDocument } from "./export";
import { loadSubjectLists, type SubjectLists } from "./picture";

/**
 * Ley 29733 requests of people who never bought (decision 0064): known to the shop only by the
 * e-mail on a Libro de Reclamaciones sheet, a contact message, a promotional-consent event or a
 * saved cart, with no account and no guest order under it. They are named in URLs by one of those
 * rows (`reclamo-<uuid>`, `mensaje-<uuid>`, `consentimiento-<id>`, `carrito-<uuid>`), never by the
 * e-mail (decision 0061 says why). The e-mail on that row is who they are; their picture, export
 * and anonymisation are the guests' and accounts' own code with a subject that has no orders.
 */

export const PERSON_SOURCES = ["reclamo", "mensaje", "consentimiento", "carrito"] as const;
export type PersonSource = (typeof PERSON_SOURCES)[number];

export interface PersonReference {
  source: PersonSource;
  id: string;
}

/** `reclamo-<uuid>` and the like; anything else names nobody (a 404 for the routes). */
export function parsePersonReference(reference: string): PersonReference | null {
  const dash = reference.indexOf("-");
  if (dash < 0) return null;
  const source = reference.slice(0, dash) as PersonSource;
  const id = reference.slice(dash + 1).toLowerCase();
  if (!PERSON_SOURCES.includes(source)) return null;
  // Consent events are numbered (bigserial); the other rows have uuids.
  if (source === "consentimiento") return /^[1-9][0-9]{0,14}$/.test(id) ? { source, id } : null;
  return isUuid(id) ? { source, id } : null;
}

export const personReference = (source: PersonSource, id: string | number) => `${source}-${String(id).toLowerCase()}`;

export function anonymizedPersonEmailFor(reference: string): string {
  return `persona-${reference.toLowerCase()}@${ANONYMIZED_EMAIL_DOMAIN}`;
}

const isPlaceholder = (email: string) => email.toLowerCase().endsWith(`@${ANONYMIZED_EMAIL_DOMAIN}`);

export interface PersonProfile {
  kind: "person";
  /** The row that names the person in URLs. */
  reference: string;
  email: string;
  /** As they last wrote it on a complaint sheet or a contact message; empty when they never did. */
  name: string;
  phone: string | null;
  /** From their latest complaint sheet ("DNI 41234567"). */
  document: string | null;
  /** Their earliest row under the e-mail. */
  firstSeenAt: string | null;
  /** Their data was anonymised: what is left is what the law keeps (complaint sheets). */
  anonymized: boolean;
}

export interface PersonPicture extends SubjectLists {
  person: PersonProfile;
}

/** Whom a reference names: the person, or the account or guest whose picture already covers the e-mail. */
export type PersonLookup<T> = { kind: "person"; value: T } | { kind: "account"; userId: string } | { kind: "guest"; orderId: string } | null;

interface ResolvedPerson {
  reference: string;
  subject: DataSubject;
  anonymized: boolean;
}

/** The e-mail on the referenced row, and whether that row was already anonymised. */
async function referencedEmail(db: DatabaseOrTransaction, { source, id }: PersonReference): Promise<{ email: string; anonymized: boolean } | null> {
  switch (source) {
    case "reclamo": {
      const [row] = await db
        .select({ email: complaints.email, marked: complaintAnonymisations.complaintId })
        .from(complaints)
        .leftJoin(complaintAnonymisations, eq(complaintAnonymisations.complaintId, complaints.id))
        .where(eq(complaints.id, id));
      // The sheet keeps the e-mail as filed (legal record); the mark says its person was anonymised.
      return row ? { email: row.email, anonymized: row.marked !== null } : null;
    }
    case "mensaje": {
      const [row] = await db.select({ email: contactMessages.email }).from(contactMessages).where(eq(contactMessages.id, id));
      return row ? { email: row.email, anonymized: isPlaceholder(row.email) } : null;
    }
    case "consentimiento": {
      const [row] = await db
        .select({ email: promotionalConsentEvents.email })
        .from(promotionalConsentEvents)
        .where(eq(promotionalConsentEvents.id, Number(id)));
      return row ? { email: row.email, anonymized: isPlaceholder(row.email) } : null;
    }
    case "carrito": {
      // An anonymisation deletes the cart: a person known only by it has nothing left to show.
      const [row] = await db.select({ email: abandonedCarts.email }).from(abandonedCarts).where(eq(abandonedCarts.id, id));
      return row ? { email: row.email, anonymized: false } : null;
    }
  }
}

async function resolvePerson(db: DatabaseOrTransaction, reference: string): Promise<PersonLookup<ResolvedPerson>> {
  const parsed = parsePersonReference(reference);
  if (!parsed) return null;
  const found = await referencedEmail(db, parsed);
  if (!found) return null;
  const canonical = personReference(parsed.source, parsed.id);
  const email = found.email.toLowerCase();
  if (found.anonymized) {
    // Rewritten rows carry this reference's placeholder; a marked sheet still has the e-mail it was filed with.
    return { kind: "person", value: { reference: canonical, subject: { userId: null, email }, anonymized: true } };
  }
  // Account e-mails are stored lower-cased (better-auth): the unique index answers this.
  const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (account) return { kind: "account", userId: account.id };
  const [guestOrder] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(isNull(orders.userId), sql`lower(${orders.customerEmail}) = ${email}`))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  if (guestOrder) return { kind: "guest", orderId: guestOrder.id };
  return { kind: "person", value: { reference: canonical, subject: { userId: null, email }, anonymized: false } };
}

/** Name, phone and document as the person last wrote them, and when the shop first heard of them. */
async function describePerson(db: DatabaseOrTransaction, resolved: ResolvedPerson): Promise<PersonProfile> {
  const email = resolved.subject.email;
  const [sheet] = await db
    .select({
      names: complaints.consumerNames,
      surnames: complaints.consumerSurnames,
      phone: complaints.phone,
      documentType: complaints.documentType,
      documentNumber: complaints.documentNumber,
    })
    .from(complaints)
    .where(sql`lower(${complaints.email}) = ${email}`)
    .orderBy(desc(complaints.filedAt))
    .limit(1);
  const [message] = await db
    .select({ name: contactMessages.name, phone: contactMessages.phone })
    .from(contactMessages)
    .where(sql`lower(${contactMessages.email}) = ${email}`)
    .orderBy(desc(contactMessages.createdAt))
    .limit(1);
  const first = await db.execute(sql`select min(at) as at from (
      select min(${complaints.filedAt}) as at from ${complaints} where lower(${complaints.email}) = ${email}
      union all select min(${contactMessages.createdAt}) from ${contactMessages} where lower(${contactMessages.email}) = ${email}
      union all select min(${promotionalConsentEvents.createdAt}) from ${promotionalConsentEvents} where ${promotionalConsentEvents.email} = ${email}
      union all select min(${abandonedCarts.createdAt}) from ${abandonedCarts} where ${abandonedCarts.email} = ${email}
    ) seen`);
  const [firstSeen] = (first as unknown as { rows: { at: Date | string | null }[] }).rows;
  return {
    kind: "person",
    reference: resolved.reference,
    email,
    name: sheet ? `${sheet.names} ${sheet.surnames}`.trim() : (message?.name.trim() ?? ""),
    phone: sheet?.phone ?? message?.phone ?? null,
    document: sheet ? `${sheet.documentType.toUpperCase()} ${sheet.documentNumber}` : null,
    firstSeenAt: firstSeen?.at ? new Date(firstSeen.at).toISOString() : null,
    anonymized: resolved.anonymized,
  };
}

/** Who the person behind a reference is. */
export async function findPerson(db: DatabaseOrTransaction, reference: string): Promise<PersonLookup<PersonProfile>> {
  const found = await resolvePerson(db, reference);
  if (found?.kind !== "person") return found;
  return { kind: "person", value: await describePerson(db, found.value) };
}

/** The person's picture for /admin/clientes/persona/<reference>: the lists an account's and a guest's pages show. */
export async function loadPersonPicture(db: DatabaseOrTransaction, reference: string): Promise<PersonLookup<PersonPicture>> {
  const found = await resolvePerson(db, reference);
  if (found?.kind !== "person") return found;
  const person = await describePerson(db, found.value);
  return { kind: "person", value: { ...(await loadSubjectLists(db, found.value.subject)), person } };
}

/**
 * Ley 29733, right of access, for a person who never bought: the accounts' and guests' format and
 * collection (`collectSubjectData`), with a `person` profile and no sessions or subscriptions.
 * Read inside the transaction that writes its audit row, which names the reference, not the e-mail.
 */
export async function exportPersonData(db: Database, actor: StaffActor, reference: string, now: Date) {
  return inTransaction(db, async (tx) => {
    const found = await resolvePerson(tx, reference);
    if (found?.kind !== "person") return found;
    const resolved = found.value;
    const { kind, email, name, phone, document, firstSeenAt } = await describePerson(tx, resolved);
    const held = await collectSubjectData(tx, resolved.subject);
    const exported = exportDocument(now, { profile: { kind, email, name, phone, document, firstSeenAt }, sessions: [], subscriptions: [], held });
    await recordStaffAction(tx, actor, {
      action: "person.export",
      entityType: "person",
      entityId: resolved.reference,
      after: { ...exportCounts(held), contactMessages: held.contactMessages.length, consentEvents: held.promotionalConsent.length },
    });
    return { kind: "person" as const, value: exported };
  });
}

export function personExportFilename(reference: string, now: Date): string {
  // The source and the id's first eight characters, as the other exports' names.
  return `datos-persona-${reference.slice(0, reference.indexOf("-") + 9)}-${now.toISOString().slice(0, 10)}.json`;
}

export type PersonAnonymiseResult =
  /** `pageRemains`: the reference still names a row afterwards (a saved cart is deleted with the data). */
  | { ok: true; alreadyAnonymized: boolean; pageRemains: boolean }
  | { ok: false; reason: "not_found" | "refused"; message: string }
  | { ok: false; reason: "account"; userId: string }
  | { ok: false; reason: "guest"; orderId: string };

/**
 * Ley 29733 anonymisation of a person who never bought (decision 0064): the accounts' and guests'
 * rules and placeholders (`eraseSubjectData`) in one transaction, audited without the e-mail. There
 * is no customer row or order to lock first, so requests for one e-mail wait for each other on a
 * transaction-scoped advisory lock (decision 0025, level 0) and re-read the reference after it: a
 * second run, or a double click, finds the row rewritten, the sheet marked or the cart gone, and
 * changes nothing, audit row included.
 */
export async function anonymisePerson(db: Database, actor: StaffActor, reference: string, now: Date): Promise<PersonAnonymiseResult> {
  const done = (alreadyAnonymized: boolean) => ({ ok: true as const, alreadyAnonymized, pageRemains: parsePersonReference(reference)?.source !== "carrito" });
  return inTransaction(db, async (tx): Promise<PersonAnonymiseResult> => {
    const seen = await resolvePerson(tx, reference);
    if (!seen) return { ok: false, reason: "not_found", message: "No encontramos a esa persona." };
    if (seen.kind === "account") return { ok: false, reason: "account", userId: seen.userId };
    if (seen.kind === "guest") return { ok: false, reason: "guest", orderId: seen.orderId };
    if (seen.value.anonymized) return done(true);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`data-subject:${seen.value.subject.email}`}))`);
    const found = await resolvePerson(tx, reference);
    // The row was there before the lock: whoever held it erased it (the cart goes with the data).
    if (!found) return done(true);
    if (found.kind === "account") return { ok: false, reason: "account", userId: found.userId };
    if (found.kind === "guest") return { ok: false, reason: "guest", orderId: found.orderId };
    const { subject, anonymized } = found.value;
    if (anonymized) return done(true);
    // The shared rules: with no orders nothing is locked or refused, but a guest order placed a
    // moment ago would be, as on a guest's page.
    const orderIds = await lockSubjectOrders(tx, subject);
    const refusal = blockerMessage(await anonymiseBlockers(tx, subject));
    if (refusal) return { ok: false, reason: "refused", message: refusal };
    await eraseSubjectData(tx, { subject, placeholder: anonymizedPersonEmailFor(found.value.reference), orderIds, now });
    // No personal data in the audit row: the log is append-only and outlives this.
    await recordStaffAction(tx, actor, {
      action: "person.anonymize",
      entityType: "person",
      entityId: found.value.reference,
      after: { status: "anonymized" },
    });
    return done(false);
  });
}
