export { findSubscriptionForUser, findSubscriptionStatus, listSubscriptionsForUser, type SubscriptionView } from "./customer-subscriptions";
export { activateSubscription, type ActivationResult } from "./signup";
export { findSubscriptionAwaitingCard } from "./pending-card";
export { completeFlowCardRegistration, type FlowReturnOutcome } from "./flow-card-return";
export { renewDueSubscriptions, RETRY_DAYS, MAX_ATTEMPTS, type RenewalReport } from "./renewals";
export { scheduleSubscriptionDeliveries } from "./schedule-deliveries";
export { sendRenewalReminders } from "./reminders";
export { endCancelledSubscriptions, resumeEndedPauses, resumeSubscription } from "./lifecycle";
export { notifySubscriber } from "./notify";
export { closeAbandonedSignups, issueRenewalPaymentLinks, settlePaymentLinkPeriods, PAYMENT_LINK_DAYS } from "./renewal-links";
export * from "./self-service";
export { createPendingSubscription } from "./signup";
export { liveSubscriptionsOf, secondSubscriptionMessage } from "./live-subscriptions";
export {
  findSubscriptionForStaff,
  searchStaffSubscriptions,
  STAFF_SUBSCRIPTIONS_PAGE_SIZE,
  type StaffSubscriptionDetail,
  type StaffSubscriptionRow,
} from "./staff-console";
export { listFailedPayments, FAILED_PAYMENTS_LIMIT, type FailedPaymentRow } from "./failed-payments";
export { subscriptionForecast, type ForecastDay, type SubscriptionForecast } from "./forecast";
export { endSubscriptionsForErasure } from "./erasure";
export { repriceSubscriptionsForCatalogChange, type CatalogPriceChange } from "./catalog-price-change";
