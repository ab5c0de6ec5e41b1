import { createHash } from "node:crypto";
import { zipSync } from "fflate";
import { limaToday } from "@core/lima-dates";
import { invoiceStatusLabels } from "@core/invoice-list";
import { getIssuer, getSiteSettings } from "../content/index.server";
import type { Database } from "../db/client";
import type { EmailAttachmentRef } from "../db/schema";
import { enqueueEmail, invoicesEmail } from "../notifications/index.server";
import type { DatabaseOrTransaction } from "../db/transaction";
import { findAllInvoicesForUser, findInvoicesByIds } from "./customer-invoices";
import { invoicePdfFilename, renderInvoicePdf } from "./invoice-pdf";

export interface InvoiceFile {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** 'Descargar todas': every invoice of the user as `B001-00000012.pdf` in one zip. */
export async function invoicesArchiveForUser(db: Database, userId: string, { now }: { now: Date }): Promise<InvoiceFile> {
  const invoices = await findAllInvoicesForUser(db, userId, { now });
  const issuer = await getIssuer(db);
  const files: Record<string, Uint8Array> = {};
  for (const invoice of invoices) files[invoicePdfFilename(invoice.invoiceNumber)] = await renderInvoicePdf(invoice, issuer);
  // PDFs are already compressed inside: storing them (level 0) keeps the zip quick to make.
  const zip = zipSync(files, { level: 0 });
  return { filename: "facturas.zip", content: Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength), contentType: "application/zip" };
}

export type EmailInvoicesResult = { status: "queued" | "already_sent"; to: string; count: number } | { status: "no_invoices"; to: string; count: 0 };

/**
 * 'Enviar por email': queues ONE email to the account's address with every invoice PDF attached
 * (rendered when the email is sent). The dedupe key is the user, the Lima day and the set of
 * invoices (decision 0017): a double click, a resubmitted form or two tabs send one email, and a
 * new invoice makes a new request meaningful again the same day.
 */
export async function emailInvoicesToUser(
  db: Database,
  user: { id: string; email: string; firstName: string },
  { now, siteUrl }: { now: Date; siteUrl: string },
): Promise<EmailInvoicesResult> {
  const invoices = await findAllInvoicesForUser(db, user.id, { now });
  if (invoices.length === 0) return { status: "no_invoices", to: user.email, count: 0 };
  const ids = invoices.map((invoice) => invoice.id);
  const fingerprint = createHash("sha256")
    .update([...ids].sort().join(","))
    .digest("hex")
    .slice(0, 16);
  const { brandName } = await getSiteSettings(db);
  const email = invoicesEmail({
    brandName,
    firstName: user.firstName,
    invoices: invoices.map((invoice) => ({
      invoiceNumber: invoice.invoiceNumber,
      issuedOn: invoice.issuedOn,
      totalCents: invoice.totalCents,
      statusLabel: invoiceStatusLabels[invoice.status],
    })),
    invoicesUrl: new URL("/dashboard/facturas", siteUrl).toString(),
  });
  const queued = await enqueueEmail(
    db,
    {
      dedupeKey: `invoices-email:${user.id}:${limaToday(now)}:${fingerprint}`,
      kind: "invoices",
      to: user.email,
      ...email,
      attachments: ids.map((id): EmailAttachmentRef => ({ kind: "invoice_pdf", id })),
    },
    now,
  );
  return { status: queued ? "queued" : "already_sent", to: user.email, count: invoices.length };
}

/** The outbox's attachment renderer for invoice PDFs (handed to email delivery by the jobs). */
export async function renderInvoiceAttachments(db: DatabaseOrTransaction, refs: EmailAttachmentRef[], { now }: { now: Date }): Promise<InvoiceFile[]> {
  const unknownKinds = refs.filter((ref) => ref.kind !== "invoice_pdf");
  if (unknownKinds.length > 0) throw new Error(`Unknown attachment kind: ${unknownKinds[0]!.kind}`);
  const invoices = await findInvoicesByIds(
    db,
    refs.map((ref) => ref.id),
    { now },
  );
  const issuer = await getIssuer(db);
  const files: InvoiceFile[] = [];
  for (const ref of refs) {
    const invoice = invoices.find((candidate) => candidate.id === ref.id);
    if (!invoice) throw new Error(`Attached invoice ${ref.id} does not exist`);
    files.push({ filename: invoicePdfFilename(invoice.invoiceNumber), content: await renderInvoicePdf(invoice, issuer), contentType: "application/pdf" });
  }
  return files;
}
