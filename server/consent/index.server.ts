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
export { emailFromPreferencesToken, emailPreferencesToken, emailPreferencesUrl, promotionalConsentConfirmUrl } from "./unsubscribe-link";
