export { checkReorderToken, reorderToken, reorderUrl } from "./reorder-link";
export { reorderCart } from "./reorder-cart";
export { recentReorderReminders, REMINDER_LINK_DAYS, sendReorderReminders, sendReorderRemindersWhenDue, upcomingReorderReminders } from "./reminders";
