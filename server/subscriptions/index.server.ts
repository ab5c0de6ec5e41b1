export { findSubscriptionForUser, listSubscriptionsForUser, type SubscriptionView } from "./customer-subscriptions";
export { activateSubscription, type ActivationResult } from "./signup";
export { findSubscriptionAwaitingCard } from "./pending-card";
export { renewDueSubscriptions, settlePaidLinkPeriods, RETRY_DAYS, MAX_ATTEMPTS, type RenewalReport } from "./renewals";
export { scheduleSubscriptionDeliveries } from "./schedule-deliveries";
export { sendRenewalReminders } from "./reminders";
export { endCancelledSubscriptions, resumeEndedPauses, resumeSubscription } from "./lifecycle";
export { notifySubscriber } from "./notify";
export * from "./self-service";
