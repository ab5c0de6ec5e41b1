/** Issue 5 self-service: each action takes `(db, { userId, subscriptionId, requestKey, ...input, now, siteUrl })`. */
export type { SelfServiceContext, SelfServiceResult } from "./change";
export { pauseSubscription, resumeSubscriptionNow } from "./pause";
export { skipNextDelivery } from "./skip";
export { changeNextDeliveryDate } from "./delivery-date";
export { changeSubscriptionProducts } from "./products";
export { changeSubscriptionFrequency } from "./frequency";
export { changeSubscriptionCadence } from "./cadence";
export { changeSubscriptionOrganization } from "./organization";
export { changeBillingMethod } from "./billing";
export { cancelSubscription, undoCancellation } from "./cancel";
export { findSubscriptionForCardUpdate, updateSubscriptionCard } from "./card";
export { loadSelfServiceOptions, type SelfServiceOptions } from "./options";
export { chargeUnpaidPeriodNow } from "./charge-now";
