export { findSubscriptionForUser, listSubscriptionsForUser, type SubscriptionView } from "./customer-subscriptions";
