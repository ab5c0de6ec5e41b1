/**
 * Culqi's own checkout (Checkout Custom, payments.md A.15), loaded from js.culqi.com. It collects
 * the card, Yape or a cash code and hands back a token or a confirmed Culqi order.
 */
import { useEffect, useEffectEvent, useState } from "react";

export const CULQI_CHECKOUT_SCRIPT = "https://js.culqi.com/checkout-js";

interface CulqiCheckoutInstance {
  token?: { id: string; email?: string };
  order?: { id: string; payment_code?: string };
  error?: { user_message?: string };
  culqi: () => void;
  open: () => void;
  close: () => void;
}

declare global {
  interface Window {
    CulqiCheckout?: new (publicKey: string, config: unknown) => CulqiCheckoutInstance;
  }
}

export type CulqiCheckoutResult = { kind: "token"; tokenId: string; email: string | null } | { kind: "order" } | { kind: "error"; message: string };

export interface CulqiCheckoutSettings {
  enabled: boolean;
  publicKey: string;
  amountCents: number;
  culqiOrderId: string | null;
  email: string;
}

/** `open` is null until the widget is ready; `loadError` says why it never will be. */
export function useCulqiCheckout(settings: CulqiCheckoutSettings, onResult: (result: CulqiCheckoutResult) => void) {
  const { enabled, publicKey, amountCents, culqiOrderId, email } = settings;
  const [instance, setInstance] = useState<CulqiCheckoutInstance | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const report = useEffectEvent(onResult);

  useEffect(() => {
    if (!enabled) return;
    const script = document.createElement("script");
    script.src = CULQI_CHECKOUT_SCRIPT;
    script.async = true;
    script.onload = () => {
      if (!window.CulqiCheckout) return setLoadError("No se pudo abrir Culqi. Intenta nuevamente en unos minutos.");
      const checkout = new window.CulqiCheckout(publicKey, {
        settings: { title: "Vida Alcalina", currency: "PEN", amount: amountCents, ...(culqiOrderId ? { order: culqiOrderId } : {}) },
        client: { email },
        options: {
          lang: "es",
          installments: false,
          paymentMethods: {
            tarjeta: true,
            yape: true,
            bancaMovil: Boolean(culqiOrderId),
            agente: Boolean(culqiOrderId),
            billetera: Boolean(culqiOrderId),
            cuotealo: false,
          },
        },
      });
      checkout.culqi = () => {
        if (checkout.token) {
          // Culqi's window closes before the charge, so a 3DS check can show its own.
          checkout.close();
          report({ kind: "token", tokenId: checkout.token.id, email: checkout.token.email ?? null });
        } else if (checkout.order) report({ kind: "order" });
        else report({ kind: "error", message: checkout.error?.user_message ?? "Ocurrió un problema al inicializar el pago. Intenta nuevamente." });
      };
      setInstance(checkout);
    };
    script.onerror = () => setLoadError("No se pudo abrir Culqi. Revisa tu conexión e intenta nuevamente.");
    document.body.appendChild(script);
    return () => script.remove();
  }, [enabled, publicKey, amountCents, culqiOrderId, email]);

  return { open: instance ? () => instance.open() : null, loadError };
}
