export { contactRateLimit, sendContactMessage } from "./send-message";
export { listContactMessages, markContactMessageAttended } from "./staff-inbox";
