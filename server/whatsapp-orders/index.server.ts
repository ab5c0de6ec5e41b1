/**
 * "Lo de siempre" on WhatsApp (issue 38, decision 0090): one floor above whatsapp/, checkout/,
 * reorders/ and contacts/. A proven customer's "lo de siempre" is answered with a summary of
 * their last order priced today (reply buttons Confirmar / Cambiar); "Confirmar" places exactly
 * that, paid at the door. Run by the jobs' `whatsappConversations` pass.
 */
export { answerWhatsappConversations } from "./answer";
export { repeatCheckoutKey } from "./place";
export { QUOTE_VALID_MS } from "./quote";
export { collectRepeatQuotes, eraseRepeatQuotesOf } from "./subject-data";
