export { contactRateLimit, sendContactMessage, type SendContactMessageResult } from "./send-message";
export { CONTACT_INBOX_LIMIT, listContactMessages, markContactMessageAttended, type ContactMessageRow, type MarkAttendedResult } from "./staff-inbox";
