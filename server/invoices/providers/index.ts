import { env } from "../../config/env";
import type { ComprobanteProvider } from "./comprobante-provider";
import { nubefactProvider } from "./nubefact";
import { offlineComprobanteProvider } from "./offline";

/** Nubefact when NUBEFACT_URL and NUBEFACT_TOKEN are set; otherwise the offline stand-in. */
export function activeComprobanteProvider(): ComprobanteProvider {
  const config = env();
  return config.NUBEFACT_URL && config.NUBEFACT_TOKEN
    ? nubefactProvider({ url: config.NUBEFACT_URL, token: config.NUBEFACT_TOKEN })
    : offlineComprobanteProvider;
}

export type { ComprobanteProvider, DocumentLinks, ProviderAnswer } from "./comprobante-provider";
export { nubefactProvider } from "./nubefact";
export { offlineComprobanteProvider } from "./offline";
