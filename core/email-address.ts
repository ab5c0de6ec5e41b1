/**
 * One rule for every e-mail address the shop accepts, stores or writes to (issue 24, decision
 * 0072): the plain `name@domain.tld` people type, and nothing a mail library could read as
 * something else. nodemailer parses a recipient as an address list, so a "valid-looking" value
 * with quotes, angle brackets, commas or spaces — `x"><svg/onload=…>@dominio.pe` — became another
 * address (the part in angle brackets) or several. The local part is letters, digits and
 * `. _ + -` (no dot first, last or doubled); the domain is dot-separated labels of letters,
 * digits and inner hyphens, ending in a top-level domain of letters. ASCII only: an address with
 * accents, quotes or other signs is refused with the same Spanish message, and the form keeps what
 * was typed. Every address it accepts is one nodemailer reads as exactly itself and one
 * better-auth's own check (zod's `z.email()`) accepts too (tests/unit/email-address.test.ts).
 */
import { z } from "./zod";

export const EMAIL_MAX_LENGTH = 160;

// No lookbehind: the pattern also runs in the checkout's browser code, and Safari before 16.4 cannot parse one.
export const EMAIL_PATTERN = /^(?!.*\.\.)[a-z0-9_+-](?:[a-z0-9._+-]{0,62}[a-z0-9_+-])?@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export const INVALID_EMAIL = "Ingresa un correo válido";

/** Whether `value` (already trimmed) is an address under the shop's one rule. */
export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

/** The address field of every form: trimmed, lower case, under the one rule (`empty` for a field left blank). */
export function emailAddress(empty: string = INVALID_EMAIL) {
  return z.string().trim().toLowerCase().min(1, empty).refine(isEmailAddress, INVALID_EMAIL);
}
