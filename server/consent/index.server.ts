export {
  addressesWithPromotionalConsent,
  currentPromotionalConsent,
  hasPromotionalConsent,
  promotionalConsentHistory,
  recordPromotionalConsent,
  type ConsentChange,
  type PromotionalConsent,
} from "./consent-events";
export { EMAIL_PREFERENCES_PATH, emailFromPreferencesToken, emailPreferencesToken, emailPreferencesUrl } from "./unsubscribe-link";
