/**
 * Ley 29733 exports hand a person the e-mails the shop sent them, but a sent e-mail's links are
 * keys: a receipt link with its token, the e-mail verification and password reset links, the
 * one-click unsubscribe link, a payment page, a saved cart, a complaint sheet. A copy of the export
 * (sent by e-mail, left on a laptop) must not open any of them (issue 24, defect 8; decision 0071).
 *
 * Every link in an exported text keeps its site and its readable path, and loses what can open
 * something: every query value and fragment, and every path segment that is an id or a token
 * (16 or more letters, digits, `-`, `_`, `.` or `~` with at least one digit). The rule is generic
 * on purpose, so a link a future e-mail adds is covered without anyone remembering this file.
 */
export const REDACTED = "[oculto]";

const LINK = /\bhttps?:\/\/[^\s<>"'()[\]{}]+/gi;
const SECRET_SEGMENT = /^(?=[^/]*\d)[A-Za-z0-9._~%-]{16,}$/;

export function redactLinkSecrets(text: string): string {
  return text.replace(LINK, redactLink);
}

function redactLink(link: string): string {
  // A sentence's closing punctuation is not part of the link.
  const trailing = /[.,;:!?]+$/.exec(link)?.[0] ?? "";
  const url = trailing ? link.slice(0, -trailing.length) : link;
  const origin = /^https?:\/\/[^/?#]*/i.exec(url)![0];
  const rest = url.slice(origin.length);
  const queryAt = rest.search(/[?#]/);
  const path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const tail = queryAt === -1 ? "" : rest.slice(queryAt);
  const safePath = path
    .split("/")
    .map((segment) => (SECRET_SEGMENT.test(segment) ? REDACTED : segment))
    .join("/");
  const query = tail.startsWith("?") ? tail.slice(1).split("#")[0]! : "";
  const safeQuery = query
    ? `?${query
        .split("&")
        .map((pair) => (pair.includes("=") ? `${pair.slice(0, pair.indexOf("="))}=${REDACTED}` : REDACTED))
        .join("&")}`
    : "";
  const safeFragment = tail.includes("#") ? `#${REDACTED}` : "";
  return `${origin}${safePath}${safeQuery}${safeFragment}${trailing}`;
}
