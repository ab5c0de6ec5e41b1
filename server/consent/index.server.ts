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
  type ConsentEvidence,
} from "./consent-events";
export { emailFromPreferencesToken, emailPreferencesToken, emailPreferencesUrl, promotionalConsentConfirmUrl } from "./unsubscribe-link";
