import { useCallback, useSyncExternalStore } from "react";
import type { PurchaseType, SubscriptionFrequency } from "@core/pricing";

/**
 * Spec §3 local state: the purchase type (default one-time) and subscription frequency
 * (default mensual), remembered in local storage across visits and shared between tabs.
 */
const TYPE_KEY = "va-purchase-type:v1";
const FREQUENCY_KEY = "va-subscription-frequency:v1";
const CHANGE_EVENT = "va-purchase-options-change";

export interface PurchaseOptions {
  purchaseType: PurchaseType;
  subscriptionFrequency: SubscriptionFrequency;
}

const defaults: PurchaseOptions = { purchaseType: "one-time", subscriptionFrequency: "mensual" };
let cached: PurchaseOptions = defaults;

function read(): PurchaseOptions {
  const type = window.localStorage.getItem(TYPE_KEY);
  const frequency = window.localStorage.getItem(FREQUENCY_KEY);
  const next: PurchaseOptions = {
    purchaseType: type === "subscription" ? "subscription" : "one-time",
    subscriptionFrequency: frequency === "anual" ? "anual" : "mensual",
  };
  if (next.purchaseType !== cached.purchaseType || next.subscriptionFrequency !== cached.subscriptionFrequency) cached = next;
  return cached;
}

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

export function usePurchaseOptions() {
  const options = useSyncExternalStore(subscribe, read, () => defaults);
  const update = useCallback((next: Partial<PurchaseOptions>) => {
    if (next.purchaseType) window.localStorage.setItem(TYPE_KEY, next.purchaseType);
    if (next.subscriptionFrequency) window.localStorage.setItem(FREQUENCY_KEY, next.subscriptionFrequency);
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }, []);
  return { ...options, update };
}
