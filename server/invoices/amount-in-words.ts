/**
 * The amount in words a Peruvian boleta or factura prints under its total
 * (shared/reference/payments.md D.4): 'SON: CIENTO DIECINUEVE CON 90/100 SOLES'.
 * Written by hand: Spanish cardinals in upper case, with the short forms before a noun
 * ('VEINTIÚN MIL', 'CIENTO UN MIL', 'UN MILLÓN') and the full ones at the end ('VEINTIUNO').
 */
const UNITS = ["CERO", "UNO", "DOS", "TRES", "CUATRO", "CINCO", "SEIS", "SIETE", "OCHO", "NUEVE"];
const TEN_TO_TWENTY_NINE = [
  "DIEZ",
  "ONCE",
  "DOCE",
  "TRECE",
  "CATORCE",
  "QUINCE",
  "DIECISÉIS",
  "DIECISIETE",
  "DIECIOCHO",
  "DIECINUEVE",
  "VEINTE",
  "VEINTIUNO",
  "VEINTIDÓS",
  "VEINTITRÉS",
  "VEINTICUATRO",
  "VEINTICINCO",
  "VEINTISÉIS",
  "VEINTISIETE",
  "VEINTIOCHO",
  "VEINTINUEVE",
];
const TENS = ["", "", "", "TREINTA", "CUARENTA", "CINCUENTA", "SESENTA", "SETENTA", "OCHENTA", "NOVENTA"];
const HUNDREDS = ["", "CIENTO", "DOSCIENTOS", "TRESCIENTOS", "CUATROCIENTOS", "QUINIENTOS", "SEISCIENTOS", "SETECIENTOS", "OCHOCIENTOS", "NOVECIENTOS"];

const MAX = 999_999_999_999;

/** 1–99; `beforeNoun` gives 'UN' for 'UNO' and 'VEINTIÚN' for 'VEINTIUNO'. */
function belowHundred(n: number, beforeNoun: boolean): string {
  if (n < 10) return n === 1 && beforeNoun ? "UN" : UNITS[n]!;
  if (n < 30) return n === 21 && beforeNoun ? "VEINTIÚN" : TEN_TO_TWENTY_NINE[n - 10]!;
  const unit = n % 10;
  const tens = TENS[Math.floor(n / 10)]!;
  return unit === 0 ? tens : `${tens} Y ${belowHundred(unit, beforeNoun)}`;
}

/** 1–999. */
function belowThousand(n: number, beforeNoun: boolean): string {
  if (n === 100) return "CIEN";
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const words = [hundreds ? HUNDREDS[hundreds]! : "", rest ? belowHundred(rest, beforeNoun) : ""];
  return words.filter(Boolean).join(" ");
}

function words(n: number, beforeNoun: boolean): string {
  if (n < 1000) return belowThousand(n, beforeNoun);
  if (n < 1_000_000) {
    const thousands = Math.floor(n / 1000);
    const rest = n % 1000;
    const head = thousands === 1 ? "MIL" : `${belowThousand(thousands, true)} MIL`;
    return rest ? `${head} ${belowThousand(rest, beforeNoun)}` : head;
  }
  const millions = Math.floor(n / 1_000_000);
  const rest = n % 1_000_000;
  const head = millions === 1 ? "UN MILLÓN" : `${words(millions, true)} MILLONES`;
  return rest ? `${head} ${words(rest, beforeNoun)}` : head;
}

/** A whole number from 0 to 999 999 999 999 in Spanish words, upper case: 21 → 'VEINTIUNO'. */
export function numberInSpanishWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > MAX) throw new RangeError(`Cannot write ${n} in words`);
  return n === 0 ? "CERO" : words(n, false);
}

/** 11990 céntimos → 'CIENTO DIECINUEVE CON 90/100 SOLES'. */
export function amountInWords(cents: number): string {
  if (!Number.isInteger(cents) || cents < 0) throw new RangeError(`Not an amount in céntimos: ${cents}`);
  const soles = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, "0");
  return `${numberInSpanishWords(soles)} CON ${fraction}/100 SOLES`;
}
