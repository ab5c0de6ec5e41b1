import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the document being rendered (entry.server sets it; see
 * app/server/content-security-policy.server.ts). Browsers hide a nonce from the DOM once the page has
 * loaded, so in the browser this is empty, which is fine: only the server's HTML needs it.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
