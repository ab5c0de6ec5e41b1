export { checkReorderToken, reorderToken, reorderUrl, type ReorderTokenCheck } from "./reorder-link";
export { reorderCart, type ReorderCart, type ReorderPrefill } from "./reorder-cart";
export {
  recentReorderReminders,
  REMINDER_LINK_DAYS,
  sendReorderReminders,
  sendReorderRemindersWhenDue,
  upcomingReorderReminders,
  type ReminderChannel,
  type ReminderCustomer,
  type UpcomingReminder,
} from "./reminders";
