import type { ComprobanteDocument, ComprobanteKind } from "../comprobante-document";

/** What the OSE says about one document (decision 0045). */
export type ProviderAnswer =
  | { kind: "accepted" | "observed"; code: string; description: string; links: DocumentLinks; qrText: string | null; hash: string | null }
  /** Reached the OSE; SUNAT has not answered yet: ask again later (consult). */
  | { kind: "sent"; links: DocumentLinks; qrText: string | null; hash: string | null }
  /** SUNAT rejected it (codes 2000–3999): its number is burnt. */
  | { kind: "rejected"; code: string; description: string }
  /** The OSE refused its format (Nubefact code 20): fix, then resend with the same number. */
  | { kind: "format_error"; message: string }
  /** The OSE already has this number (Nubefact code 23): it arrived earlier; consult it. */
  | { kind: "already_exists" }
  /** Consulted, and the OSE has no such document (Nubefact code 24): it never arrived; send it. */
  | { kind: "missing" }
  /** The OSE or SUNAT could not be reached or failed (network, timeout, codes 21/40, 5xx): retry with backoff. */
  | { kind: "unavailable"; message: string }
  /** Something staff must fix (bad token or route, suspended account, past the legal deadline): retried slowly, alarmed. */
  | { kind: "needs_staff"; message: string }
  /** The offline provider keeps the local PDF only: not a tax document. */
  | { kind: "local" };

export interface DocumentLinks {
  pdf: string | null;
  xml: string | null;
  cdr: string | null;
}

export interface DocumentReference {
  kind: ComprobanteKind;
  series: string;
  number: number;
}

/** An OSE/PSE (Nubefact), or the offline stand-in; chosen by the environment, never by a route. */
export interface ComprobanteProvider {
  readonly name: "nubefact" | "offline";
  send(document: ComprobanteDocument): Promise<ProviderAnswer>;
  consult(reference: DocumentReference): Promise<ProviderAnswer>;
}
