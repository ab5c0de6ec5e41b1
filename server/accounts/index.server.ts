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
  type SignInResult,
  landingPathFor,
} from "./auth-actions";
export { consumeRateLimit, RATE_LIMITS, rateLimitMessage, reservePacedSlot } from "./rate-limit";
export { isEmailRegistered, provenAccountOf } from "./guest-orders";
export { getProfile, updateProfile, type Profile } from "./profile";
export { hashPassword } from "./password-hash";
export { getDashboard, type DashboardSummary } from "./dashboard-summary";
export { isStaffRole, type StaffRole, type UserRole } from "@core/staff-roles";
export {
  listStaffMembers,
  createStaffMember,
  changeStaffRole,
  setStaffStatus,
  type StaffMemberRow,
  type CreateStaffResult,
  type TeamChangeResult,
  type UserStatus,
} from "./staff-team";
export { getStaffHome, type StaffHome } from "./staff-home";
export { resendCustomerVerification, sendCustomerPasswordReset, setCustomerStatus, type CustomerAccountResult } from "./staff-customer-actions";
export { forgetSignedInUsers } from "./current-user";
export { confirmEmailAddress, readConfirmationLink, type ConfirmEmailResult, type ConfirmationLink } from "./email-proof";
export {
  addGuestOrderToAccount,
  orderClaimToken,
  orderClaimUrl,
  readOrderClaim,
  type OrderClaimRefusal,
  type OrderClaimResult,
  type OrderClaimView,
} from "./order-claim";
