export { enqueueEmail, enqueueEmails, type EmailMessage } from "./outbox";
export { orderConfirmationEmail, type OrderConfirmationData } from "./templates/order-confirmation";
export { emailVerificationEmail, passwordChangedEmail, passwordResetEmail } from "./templates/account-emails";
export { signInAttemptsEmail } from "./templates/sign-in-attempts-email";
export { paymentRefundedEmail, type PaymentRefundedData } from "./templates/payment-refunded";
export { invoicesEmail, type InvoicesEmailData } from "./templates/invoices-email";
export { comprobanteAcceptedEmail, type ComprobanteAcceptedData } from "./templates/comprobante-accepted";
export {
  renewalFailedEmail,
  renewalPaymentLinkEmail,
  renewalReminderEmail,
  subscriptionChangedEmail,
  subscriptionPastDueEmail,
  subscriptionPriceChangeEmail,
} from "./templates/subscription-emails";
export { emailOutboxCounts, listDeadEmails, retryDeadEmail, retryDeadEmailByStaff, type DeadEmail, type RetryDeadEmailResult } from "./dead-letters";
export { deliveryDeliveredEmail, deliveryFailedEmail, deliveryOnTheWayEmail } from "./templates/delivery-emails";
export { orderCancelledEmail, orderRefundedEmail, type OrderCancelledData, type OrderRefundedData, type RefundChannel } from "./templates/staff-order-emails";
export { dayRescheduledEmail, deliveryRescheduledEmail, type DayRescheduledData, type DeliveryRescheduledData } from "./templates/delivery-rescheduled";
export type { MailTransport } from "./deliver";
export { abandonedCartEmail } from "./templates/abandoned-cart";
export { type PromotionalSender } from "./templates/promotional";
export { configuredTransport, eraseEmailOutboxFiles } from "./deliver";
export { eraseOutboxFiles, outboxFileBase, type OutboxFileName } from "./outbox-files";
export { deliverPendingEmails } from "./deliver";
export { contactMessageEmail, type ContactMessageEmailData } from "./templates/contact-message";
export { complaintAnswerEmail, complaintCopyEmail, type ComplaintSheetEmailData } from "./templates/complaint-emails";
export { garantiaCreditEmail } from "./templates/garantia-emails";
export { reorderReminderEmail } from "./templates/reorder-reminder";
export { isLastAttempt, retryDelayMs } from "./retry-schedule";
export { askForPromotionalConsent } from "./promotional-consent-ask";
export { paymentLinkEmail, type PaymentLinkEmailData } from "./templates/payment-link";
