export { contactRateLimit, sendContactMessage, type SendContactMessageResult } from "./send-message";
export { listContactMessages, markContactMessageAttended, type ContactMessageRow, type MarkAttendedResult } from "./staff-inbox";
