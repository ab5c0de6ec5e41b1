import type { ComprobanteProvider } from "./comprobante-provider";

/**
 * Without NUBEFACT_URL and NUBEFACT_TOKEN nothing reaches SUNAT: the shop keeps printing its own
 * PDFs, which say plainly that they are not tax documents (decision 0045).
 */
export const offlineComprobanteProvider: ComprobanteProvider = {
  name: "offline",
  send: async () => ({ kind: "local" }),
  consult: async () => ({ kind: "local" }),
};
