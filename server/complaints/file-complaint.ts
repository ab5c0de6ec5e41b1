import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { formatComplaintNumber, parseClaimedAmount, type ComplaintForm } from "@core/complaints-book";
import { limaToday } from "@core/lima-dates";
import { consumeRateLimit, reservePacedSlot } from "../accounts/index.server";
import { env } from "../config/env";
import { getIssuer } from "../content/index.server";
import type { Database } from "../db/client";
import { complaintCounters, complaints, orders, type EmailAttachmentRef } from "../db/schema";
import { inTransaction, type DatabaseOrTransaction } from "../db/transaction";
import { complaintCopyEmail, enqueueEmail } from "../notifications/index.server";
import { complaintSheetView, hashAccessToken } from "./sheet";

/** Sheets one client may file per hour: plenty for a person, not a flood (scaled like the other per-client limits). */
export function complaintRateLimit() {
  return { limit: 5 * env().CLIENT_RATE_LIMIT_FACTOR, windowSeconds: 60 * 60 };
}

/**
 * Issue 24, decision 0073: every sheet e-mails its copy to the address typed in it, so the copies
 * the shop as a whole sends are paced: this many an hour go out at once, the rest one every
 * 3600 / N seconds after them. A flood from many clients can neither make the book a way of mailing
 * strangers in bulk nor shut it: the law wants every sheet filed and a copy on screen at once
 * (the sheet's page and PDF), and each e-mailed copy still goes out, only later.
 */
export const COMPLAINT_COPIES_PER_HOUR = 30;

export type FileComplaintResult =
  { ok: true; id: string; sheetNumber: string; token: string } | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/** The path of the consumer's copy: an unguessable token, never the sequential number. */
export const complaintSheetPath = (token: string) => `/libro-de-reclamaciones/hoja/${token}`;

/**
 * Files a sheet of the Libro de Reclamaciones: the year's next number, the sheet with the
 * provider's data of this moment, and the consumer's copy by e-mail (PDF attached), all in one
 * transaction. The year's counter row is the only row locked (an upsert takes it), so concurrent
 * filings queue for numbers and a rolled-back one gives its number back: no gaps, no repeats.
 */
export async function fileComplaint(
  db: Database,
  form: ComplaintForm,
  { now, client, siteUrl }: { now: Date; client: string; siteUrl: string },
): Promise<FileComplaintResult> {
  const limit = await consumeRateLimit(db, `complaint:${client}`, complaintRateLimit(), now);
  if (!limit.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: limit.retryAfterSeconds };
  const copySentFrom = await reservePacedSlot(db, "complaint-copies", COMPLAINT_COPIES_PER_HOUR, now);

  const token = randomBytes(32).toString("base64url");
  const filedOn = limaToday(now);
  const year = Number(filedOn.slice(0, 4));
  const orderId = form.orderNumber ? await orderIdByNumber(db, form.orderNumber) : null;
  const issuer = await getIssuer(db);

  const sheet = await inTransaction(db, async (tx) => {
    const [counter] = await tx
      .insert(complaintCounters)
      .values({ year, lastNumber: 1 })
      .onConflictDoUpdate({ target: complaintCounters.year, set: { lastNumber: sql`${complaintCounters.lastNumber} + 1` } })
      .returning({ number: complaintCounters.lastNumber });
    const number = counter!.number;
    const [inserted] = await tx
      .insert(complaints)
      .values({
        year,
        number,
        sheetNumber: formatComplaintNumber(year, number),
        accessTokenHash: hashAccessToken(token),
        filedAt: now,
        filedOn,
        issuerLegalName: issuer.legalName,
        issuerRuc: issuer.ruc,
        issuerAddress: issuer.fiscalAddress,
        consumerNames: form.consumerNames,
        consumerSurnames: form.consumerSurnames,
        documentType: form.documentType,
        documentNumber: form.documentNumber.trim().toUpperCase(),
        address: form.address,
        phone: form.phone || null,
        email: form.email,
        isMinor: form.isMinor,
        guardianName: form.isMinor ? form.guardianName : null,
        guardianDocumentType: form.isMinor ? (form.guardianDocumentType ?? null) : null,
        guardianDocumentNumber: form.isMinor ? form.guardianDocumentNumber.trim().toUpperCase() : null,
        goodType: form.goodType,
        claimedAmountCents: parseClaimedAmount(form.claimedAmount),
        goodDescription: form.goodDescription,
        orderNumber: form.orderNumber || null,
        orderId,
        kind: form.kind,
        detail: form.detail,
        consumerRequest: form.consumerRequest,
      })
      .returning();
    const view = complaintSheetView(inserted!, null);
    const email = complaintCopyEmail({ brandName: issuer.brandName, ...view, sheetUrl: new URL(complaintSheetPath(token), siteUrl).toString() });
    await enqueueEmail(
      tx,
      {
        dedupeKey: `complaint-copy:${inserted!.id}`,
        kind: "complaint_copy",
        to: inserted!.email,
        ...email,
        attachments: [{ kind: "complaint_pdf", id: inserted!.id } satisfies EmailAttachmentRef],
        notBefore: copySentFrom,
      },
      now,
    );
    return inserted!;
  });
  return { ok: true, id: sheet.id, sheetNumber: sheet.sheetNumber, token };
}

/** Links the sheet to the order the consumer named, when it exists (a wrong number is kept as typed). */
async function orderIdByNumber(db: DatabaseOrTransaction, orderNumber: string): Promise<string | null> {
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.orderNumber, orderNumber));
  return order?.id ?? null;
}
