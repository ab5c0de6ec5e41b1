export { formatInvoiceNumber, invoiceSeriesFor, issueInvoiceForPaidOrder, type InvoiceableOrder } from "./issue-invoice";
export { findInvoiceForUser, listInvoicesForUser, type InvoiceDetail, type InvoiceListItem } from "./customer-invoices";
export { invoicePdfFilename, renderInvoicePdf } from "./invoice-pdf";
export { emailInvoicesToUser, invoicesArchiveForUser, renderInvoiceAttachments, type EmailInvoicesResult, type InvoiceFile } from "./invoice-files";
