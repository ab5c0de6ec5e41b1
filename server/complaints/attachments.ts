import type { EmailAttachmentRef } from "../db/schema";
import type { DatabaseOrTransaction } from "../db/transaction";
import { renderComplaintPdf } from "./complaint-pdf";
import { complaintPdfFilename, findComplaintById } from "./sheet";

/** The outbox's renderer for `complaint_pdf` attachments: the sheet's PDF, made at sending time. */
export async function renderComplaintAttachments(db: DatabaseOrTransaction, refs: EmailAttachmentRef[]) {
  const files: { filename: string; content: Buffer; contentType: string }[] = [];
  for (const ref of refs) {
    if (ref.kind !== "complaint_pdf") throw new Error(`Unknown attachment kind: ${ref.kind}`);
    const sheet = await findComplaintById(db, ref.id);
    if (!sheet) throw new Error(`Attached complaint ${ref.id} does not exist`);
    files.push({ filename: complaintPdfFilename(sheet.sheetNumber), content: await renderComplaintPdf(sheet), contentType: "application/pdf" });
  }
  return files;
}
