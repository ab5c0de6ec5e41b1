export {
  ABANDONED_AFTER_MS,
  findCartByRecoveryToken,
  markCartRecovered,
  saveAbandonedCart,
  sendAbandonedCartReminders,
  type ResumeCartResult,
} from "./abandoned-carts";
