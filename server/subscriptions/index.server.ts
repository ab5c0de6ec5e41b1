export { findSubscriptionForUser, findSubscriptionStatus, listSubscriptionsForUser, type SubscriptionView } from "./customer-subscriptions";
export { activateSubscription, type ActivationResult } from "./signup";
export { findSubscriptionAwaitingCard } from "./pending-card";
export { completeFlowCardRegistration, type FlowReturnOutcome } from "./flow-card-return";
export { renewDueSubscriptions, MAX_ATTEMPTS, type RenewalReport } from "./renewals";
export { scheduleSubscriptionDeliveries } from "./schedule-deliveries";
export { sendRenewalReminders } from "./reminders";
export { endCancelledSubscriptions, resumeEndedPauses } from "./lifecycle";
export { closeAbandonedSignups, issueRenewalPaymentLinks, settlePaymentLinkPeriods } from "./renewal-links";
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
export { listFailedPayments, type FailedPaymentRow } from "./failed-payments";
export { subscriptionForecast, type ForecastDay, type SubscriptionForecast } from "./forecast";
export { endSubscriptionsForErasure } from "./erasure";
export { repriceSubscriptionsForCatalogChange, type CatalogPriceChange } from "./catalog-price-change";
