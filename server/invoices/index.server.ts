export { formatInvoiceNumber, invoiceSeriesFor, issueInvoiceForPaidOrder, type InvoiceableOrder } from "./issue-invoice";
