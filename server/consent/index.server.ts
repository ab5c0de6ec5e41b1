export {
  addressesWithPromotionalConsent,
  confirmPromotionalConsent,
  CONSENT_REQUEST_DAYS,
  currentPromotionalConsent,
  hasPromotionalConsent,
  promotionalConsentHistory,
  readPromotionalConsentRequest,
  requestPromotionalConsent,
  revokePromotionalConsent,
  type ConfirmConsentResult,
  type ConsentEvidence,
  type ConsentRequestView,
  type PromotionalConsent,
} from "./consent-events";
export {
  EMAIL_PREFERENCES_PATH,
  emailFromPreferencesToken,
  emailPreferencesToken,
  emailPreferencesUrl,
  PROMOTIONAL_CONSENT_CONFIRM_PATH,
  promotionalConsentConfirmUrl,
} from "./unsubscribe-link";
