export {
  formatInvoiceNumber,
  invoiceSeriesFor,
  issueInvoiceForPaidOrder,
  issueInvoicesForPaidOrders,
  liveSaleInvoiceOf,
  type InvoiceableOrder,
} from "./issue-invoice";
export { findInvoiceForUser, listInvoicesForUser, type InvoiceDetail, type InvoiceListItem } from "./customer-invoices";
export { invoicePdfFilename, renderInvoicePdf } from "./invoice-pdf";
export { emailInvoicesToUser, invoicesArchiveForUser, renderInvoiceAttachments, type EmailInvoicesResult, type InvoiceFile } from "./invoice-files";
export { issueCreditNoteForRefund, issueGarantiaCreditNote } from "./credit-notes";
export { sendDueComprobantes, type SendReport } from "./send-comprobantes";
export { activeComprobanteProvider, nubefactProvider, offlineComprobanteProvider, type ComprobanteProvider } from "./providers/index";
export {
  comprobantesNearDeadline,
  listComprobantesForStaff,
  reissueRejectedComprobante,
  retryComprobante,
  type ComprobanteActionResult,
  type ComprobantesPanel,
  type StaffComprobante,
} from "./staff-comprobantes";
export { validateComprobante, type ComprobanteDocument } from "./comprobante-document";
