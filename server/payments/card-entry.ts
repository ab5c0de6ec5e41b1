import type { Database } from "../db/client";
import { activeCardProviderId } from "./cards";
import { startFlowCardRegistration, type FlowRegistrationStart } from "./flow";
import { culqiPublicKey, flowClient } from "./providers";

/**
 * What the card page offers so a customer can give a subscription card (issue 13): the route
 * renders it without asking which card provider is active.
 */
export type CardEntry =
  /** The provider registers the card on its own page: the card page posts, and its action sends the browser there. */
  | { kind: "provider_page"; providerName: string }
  /** Culqi Checkout (cards only) opens on the card page with these options and posts its token back. */
  | { kind: "culqi_checkout"; publicKey: string }
  /** The offline sandbox's own card form posts a test card. */
  | { kind: "sandbox_form" }
  /** The provider cannot replace a saved card from the shop: the customer asks the team (Flow re-registers by a link). */
  | { kind: "on_request"; providerName: string };

/** How a card is given for a new subscription (`signup`) or to replace a saved one (`update`). */
export function cardEntry(purpose: "signup" | "update"): CardEntry {
  const provider = activeCardProviderId();
  if (provider === "flow") return purpose === "signup" ? { kind: "provider_page", providerName: "Flow" } : { kind: "on_request", providerName: "Flow" };
  const publicKey = provider === "culqi" ? culqiPublicKey() : null;
  return publicKey ? { kind: "culqi_checkout", publicKey } : { kind: "sandbox_form" };
}

export type CardRegistrationStart = FlowRegistrationStart;

/** Starts the registration on the provider's own page (a `provider_page` entry): where the browser goes next. */
export function startCardRegistration(
  db: Database,
  input: { user: { id: string; email: string; fullName: string }; siteUrl: string },
): Promise<CardRegistrationStart> {
  if (activeCardProviderId() !== "flow") throw new Error("The active card provider registers cards on the shop's own page");
  return startFlowCardRegistration(db, flowClient(), input);
}
