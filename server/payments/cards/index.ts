import type { Database } from "../../db/client";
import { activePaymentProvider, culqiClient, flowClient, flowConfigured } from "../providers";
import type { CardProvider } from "./card-provider";
import { culqiCardProvider } from "./culqi-cards";
import { flowCardProvider } from "./flow-cards";
import { sandboxCardProvider } from "./sandbox-cards";

export type { CardProvider } from "./card-provider";
export { isPlausibleCardNumber, sandboxCardProvider, sandboxCardToken, SANDBOX_TEST_CARDS } from "./sandbox-cards";
export { culqiCardProvider } from "./culqi-cards";
export { flowCardProvider, FLOW_REGISTRATION_FAILED } from "./flow-cards";

/** The card provider a saved card belongs to (renewals charge a card with the provider that saved it). */
export function cardProviderFor(db: Database, provider: string): CardProvider {
  if (provider === "culqi") return culqiCardProvider(culqiClient());
  if (provider === "flow") return flowCardProvider(flowClient());
  if (provider === "sandbox") return sandboxCardProvider(db);
  throw new Error(`No card provider "${provider}"`);
}

/** Which provider new subscription cards are saved with: Flow when configured, else the active payment provider. */
export function activeCardProviderId(): CardProvider["id"] {
  return flowConfigured() ? "flow" : activePaymentProvider().id;
}

/** The provider new cards are saved with (see activeCardProviderId). */
export function activeCardProvider(db: Database): CardProvider {
  return cardProviderFor(db, activeCardProviderId());
}
