export { getSignedInUser, type SignedInUser } from "./current-user";
export {
  signIn,
  register,
  signOut,
  requestPasswordReset,
  isResetTokenValid,
  resetPassword,
  changePassword,
  INVALID_RESET_LINK,
  RECOVERY_SEND_FAILED,
  type AuthResult,
  landingPathFor,
} from "./auth-actions";
export { consumeRateLimit, RATE_LIMITS, rateLimitMessage, reservePacedSlot } from "./rate-limit";
export { isEmailRegistered, provenAccountOf } from "./guest-orders";
export { getProfile, updateProfile, type Profile } from "./profile";
export { hashPassword } from "./password-hash";
export { getDashboard } from "./dashboard-summary";
export { isStaffRole, type StaffRole } from "@core/staff-roles";
export { listStaffMembers, createStaffMember, changeStaffRole, setStaffStatus, type StaffMemberRow } from "./staff-team";
export { getStaffHome } from "./staff-home";
export { resendCustomerVerification, sendCustomerPasswordReset, setCustomerStatus } from "./staff-customer-actions";
export { forgetSignedInUsers } from "./current-user";
export { confirmEmailAddress, readConfirmationLink } from "./email-proof";
export { addGuestOrderToAccount, orderClaimToken, orderClaimUrl, readOrderClaim, type OrderClaimRefusal } from "./order-claim";
