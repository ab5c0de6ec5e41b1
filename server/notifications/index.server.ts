export { enqueueEmail, enqueueEmails, type EmailMessage } from "./outbox";
export { orderConfirmationEmail } from "./templates/order-confirmation";
export { emailVerificationEmail, passwordChangedEmail, passwordResetEmail } from "./templates/account-emails";
export { signInAttemptsEmail } from "./templates/sign-in-attempts-email";
export { paymentRefundedEmail } from "./templates/payment-refunded";
export { invoicesEmail } from "./templates/invoices-email";
export { comprobanteAcceptedEmail } from "./templates/comprobante-accepted";
export {
  renewalFailedEmail,
  renewalPaymentLinkEmail,
  renewalReminderEmail,
  subscriptionChangedEmail,
  subscriptionPastDueEmail,
  subscriptionPriceChangeEmail,
} from "./templates/subscription-emails";
export { emailOutboxCounts, listDeadEmails, retryDeadEmail, retryDeadEmailByStaff, type DeadEmail } from "./dead-letters";
export { deliveryDeliveredEmail, deliveryFailedEmail, deliveryOnTheWayEmail } from "./templates/delivery-emails";
export { orderCancelledEmail, orderRefundedEmail, type RefundChannel } from "./templates/staff-order-emails";
export { dayRescheduledEmail, deliveryRescheduledEmail } from "./templates/delivery-rescheduled";
export type { MailTransport } from "./deliver";
export { abandonedCartEmail } from "./templates/abandoned-cart";
export { configuredTransport, eraseEmailOutboxFiles } from "./deliver";
export { eraseOutboxFiles, outboxFileBase } from "./outbox-files";
export { deliverPendingEmails } from "./deliver";
export { contactMessageEmail } from "./templates/contact-message";
export { complaintAnswerEmail, complaintCopyEmail } from "./templates/complaint-emails";
export { garantiaCreditEmail } from "./templates/garantia-emails";
export { reorderReminderEmail } from "./templates/reorder-reminder";
export { isLastAttempt, retryDelayMs } from "./retry-schedule";
export { askForPromotionalConsent } from "./promotional-consent-ask";
export { paymentLinkEmail } from "./templates/payment-link";
