/**
 * WhatsApp Business Platform (issue 25, decision 0074; docs/whatsapp.md): opt-in, the outbox of
 * template messages, the sender the jobs run, Meta's webhook, and what staff and Ley 29733
 * requests read of it.
 */
export { LOCAL_PHONE_NUMBER_ID, localWebhookKey, whatsappChannel, whatsappEnabled, type WhatsappChannel } from "./channel";
export {
  cloudApiClient,
  cloudApiPayload,
  configuredWhatsappClient,
  localOutboxClient,
  type OutgoingWhatsapp,
  type SendOutcome,
  type WhatsappClient,
} from "./clients";
export {
  currentWhatsappConsent,
  recordWhatsappConsent,
  saveProfileWhatsappChoice,
  type WhatsappConsent,
  type WhatsappConsentChange,
  type WhatsappConsentSource,
} from "./consent";
export { accountWhatsappState, requestWhatsappOptIn, type WhatsappOptInOutcome, type WhatsappOptInRequest } from "./opt-in-asks";
export {
  enqueueWhatsappInteractive,
  enqueueWhatsappReply,
  enqueueWhatsappTemplate,
  enqueueWhatsappTemplates,
  withholdQueuedWhatsapp,
  type WhatsappTemplateMessage,
} from "./outbox";
export {
  deliveredWhatsapp,
  notDeliveredWhatsapp,
  onTheWayWhatsapp,
  lateWhatsapp,
  orderConfirmedWhatsapp,
  paymentCodeWhatsapp,
  paymentLinkWhatsapp,
  reorderReminderWhatsapp,
  renewalFailedWhatsapp,
  renewalSoonWhatsapp,
  type ArrivalWindow,
} from "./messages";
export { sendDueWhatsappMessages, CUSTOMER_SERVICE_WINDOW_MS, type WhatsappSendReport } from "./sender";
export { checkWebhookSignature, handleWhatsappWebhook, optOutConfirmation, verifyWebhookSubscription, type WebhookOutcome } from "./webhook";
export {
  listDeadWhatsappMessages,
  listOrderWhatsappMessages,
  listWhatsappInbox,
  markWhatsappMessageAttended,
  retryDeadWhatsappMessageByStaff,
  whatsappStateOfNumbers,
  whatsappStateOfSubject,
  whatsappOutboxCounts,
  type DeadWhatsappMessage,
  type StaffWhatsappMessage,
  type WhatsappInboxRow,
  type WhatsappNumberState,
} from "./staff";
export {
  customerServiceWindowEnd,
  isWhatsappSender,
  listWhatsappThreads,
  readWhatsappThread,
  type WhatsappCorrespondent,
  type WhatsappThread,
  type WhatsappThreadEntry,
  type WhatsappThreadSummary,
} from "./threads";
export { replyOnWhatsappByStaff, type StaffReplyResult } from "./staff-replies";
export { AnswerClaimLostError, claimInboundToAnswer, finishInboundAnswer, MAX_ANSWER_ATTEMPTS, releaseInboundAnswer, type InboundToAnswer } from "./answers";
export { collectWhatsappData, eraseWhatsappData, type WhatsappSubject } from "./subject-data";
export { fillTemplate, templateParameter, WHATSAPP_TEMPLATES, type FilledTemplate, type WhatsappTemplate, type WhatsappTemplateKey } from "./templates";
