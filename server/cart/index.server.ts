export {
  findCartByRecoveryToken,
  markCartRecovered,
  saveAbandonedCart,
  REMINDER_QUIET_DAYS,
  SAVE_LIMITS,
  type SaveAbandonedCartInput,
  type SaveAbandonedCartResult,
  sendAbandonedCartReminders,
  type ResumeCartResult,
} from "./abandoned-carts";
