export { findSubscriptionForUser, listSubscriptionsForUser, type SubscriptionView } from "./customer-subscriptions";
export { activateSubscription, type ActivationResult } from "./signup";
export { findSubscriptionAwaitingCard } from "./pending-card";
