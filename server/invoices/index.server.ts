export { formatInvoiceNumber, invoiceSeriesFor, issueInvoiceForPaidOrder, issueInvoicesForPaidOrders, liveSaleInvoiceOf } from "./issue-invoice";
export { findInvoiceForUser, listInvoicesForUser, type InvoiceDetail } from "./customer-invoices";
export { invoicePdfFilename, renderInvoicePdf } from "./invoice-pdf";
export { emailInvoicesToUser, invoicesArchiveForUser, renderInvoiceAttachments, type EmailInvoicesResult } from "./invoice-files";
export { issueCreditNoteForRefund, issueGarantiaCreditNote } from "./credit-notes";
export { sendDueComprobantes } from "./send-comprobantes";
export { activeComprobanteProvider, nubefactProvider, offlineComprobanteProvider, type ComprobanteProvider } from "./providers/index";
export { comprobantesNearDeadline, listComprobantesForStaff, reissueRejectedComprobante, retryComprobante } from "./staff-comprobantes";
export { validateComprobante } from "./comprobante-document";
