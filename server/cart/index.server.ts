export { findCartByRecoveryToken, markCartRecovered, saveAbandonedCart, REMINDER_QUIET_DAYS, SAVE_LIMITS, sendAbandonedCartReminders } from "./abandoned-carts";
