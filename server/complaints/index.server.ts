// The Libro de Reclamaciones (docs/decisions/0043-libro-de-reclamaciones.md): filing, the
// consumer's copy (page, PDF, e-mail), the staff inbox with its deadlines, and answers.
export { answerComplaint } from "./answer";
export { renderComplaintAttachments } from "./attachments";
export { renderComplaintPdf } from "./complaint-pdf";
export { COMPLAINT_COPIES_PER_HOUR, complaintRateLimit, complaintSheetPath, fileComplaint } from "./file-complaint";
export { COMPLAINT_INBOX_LIMIT, complaintDeadline, listComplaintInbox, type ComplaintInboxFilter } from "./inbox";
export { complaintPdfFilename, findComplaintById, findComplaintByToken, type ComplaintSheetView } from "./sheet";
