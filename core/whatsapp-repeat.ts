/**
 * "Lo de siempre" on WhatsApp (issue 38, decision 0090): which customers' messages ask to repeat
 * their last order, which confirm or change the summary the shop answered with, and the ids of
 * the summary's reply buttons. Pure rules: the webhook and the tests share them.
 */
import { replyWord } from "./whatsapp";

/** The reorder reminder's quick-reply button (server/whatsapp/templates.ts): its tap arrives as this text. */
export const REPEAT_QUICK_REPLY = "Pedir lo de siempre";

/** What a customer writes to repeat their last order, once greetings, courtesy and punctuation are gone. */
const REPEAT_PHRASES = new Set([
  "LO DE SIEMPRE",
  "EL DE SIEMPRE",
  "QUIERO LO DE SIEMPRE",
  "PEDIR LO DE SIEMPRE",
  "PIDO LO DE SIEMPRE",
  "QUIERO MI PEDIDO",
  "QUIERO MI PEDIDO DE SIEMPRE",
  "MI PEDIDO DE SIEMPRE",
  "REPETIR",
  "REPETIR PEDIDO",
  "REPETIR MI PEDIDO",
  "QUIERO REPETIR",
  "QUIERO REPETIR MI PEDIDO",
]);

/** Typed while a summary is open: the same as its buttons. */
const CONFIRM_WORDS = new Set(["SI", "CONFIRMO", "CONFIRMAR", "CONFIRMADO", "SI CONFIRMO"]);
const CHANGE_WORDS = new Set(["CAMBIAR", "QUIERO CAMBIAR"]);

/** Longest first: "BUENAS TARDES" must not stop at "BUENAS". */
const GREETING = /^(HOLA|OLA|HOLI|BUENOS DIAS|BUENAS TARDES|BUENAS NOCHES|BUEN DIA|BUENAS)( |$)/;
const COURTESY = /( |^)(POR FAVOR|PORFAVOR|PORFA|PLS|GRACIAS)$/;

/** The words of a reply without the "hola" before them and the "por favor" after them. */
function coreWords(body: string | null | undefined): string {
  let words = replyWord(body);
  for (let previous = ""; previous !== words;) {
    previous = words;
    words = words.replace(GREETING, "").replace(COURTESY, "").trim();
  }
  return words;
}

/** «lo de siempre», «Hola, quiero mi pedido», «REPETIR!», the reminder's button: a wish to repeat the last order. */
export function isRepeatRequest(body: string | null | undefined): boolean {
  return REPEAT_PHRASES.has(coreWords(body));
}

/** «sí», «Confirmo»: confirms the summary open for the number (never anything else). */
export function isRepeatConfirmWord(body: string | null | undefined): boolean {
  return CONFIRM_WORDS.has(coreWords(body));
}

/** «Cambiar», typed: the summary's other button. */
export function isRepeatChangeWord(body: string | null | undefined): boolean {
  return CHANGE_WORDS.has(coreWords(body));
}

export type RepeatButtonAction = "confirm" | "change";

/** The reply buttons of a summary: `repeat_confirm:<quoteId>`, `repeat_change:<quoteId>` (at most 256 characters). */
export function repeatButtonId(action: RepeatButtonAction, quoteId: string): string {
  return `repeat_${action}:${quoteId}`;
}

const BUTTON_ID = /^repeat_(confirm|change):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** A tapped button's id read back: which summary and which button, or null for any other id. */
export function readRepeatButtonId(id: string | null | undefined): { action: RepeatButtonAction; quoteId: string } | null {
  const match = BUTTON_ID.exec(id ?? "");
  return match ? { action: match[1] as RepeatButtonAction, quoteId: match[2]! } : null;
}
