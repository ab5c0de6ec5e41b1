import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";

interface CulqiCardCheckout {
  open: () => void;
  close: () => void;
  culqi?: () => void;
  token?: { id: string } | null;
  error?: { user_message?: string } | null;
}
type CulqiCheckoutConstructor = new (publicKey: string, config: unknown) => CulqiCardCheckout;

/**
 * payments.md A.14/A.15: Culqi's checkout with cards only and no amount ("Guardar Tarjeta") gives
 * a token; the server turns it into a saved card and charges the first period.
 */
export function CulqiCardForm({ publicKey, email }: { publicKey: string; email: string }) {
  const fetcher = useFetcher<{ error?: string }>();
  const [widgetError, setWidgetError] = useState<string | null>(null);
  const checkout = useRef<CulqiCardCheckout | null>(null);

  useEffect(() => {
    const script = document.createElement("script");
    script.src = "https://js.culqi.com/checkout-js";
    script.async = true;
    script.onload = () => {
      const Checkout = (window as unknown as { CulqiCheckout?: CulqiCheckoutConstructor }).CulqiCheckout;
      if (!Checkout) return setWidgetError("No se pudo abrir Culqi. Intenta nuevamente en unos minutos.");
      const instance = new Checkout(publicKey, {
        settings: { title: "Vida Alcalina", currency: "PEN", amount: "" },
        client: { email },
        options: {
          lang: "es",
          installments: false,
          paymentMethods: { tarjeta: true, yape: false, bancaMovil: false, agente: false, billetera: false, cuotealo: false },
        },
        appearance: { buttonText: "Guardar Tarjeta" },
      });
      instance.culqi = () => {
        // The answer (or its error) arrives in fetcher.data and fetcher.state, which the form renders.
        if (instance.token) void fetcher.submit({ token: instance.token.id }, { method: "post" });
        else setWidgetError(instance.error?.user_message ?? "Ocurrió un problema al inicializar el pago. Intenta nuevamente.");
      };
      checkout.current = instance;
    };
    script.onerror = () => setWidgetError("No se pudo abrir Culqi. Revisa tu conexión e intenta nuevamente.");
    document.body.appendChild(script);
    return () => script.remove();
    // The widget is set up once per page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [publicKey, email]);

  const message = widgetError ?? fetcher.data?.error ?? null;
  return (
    <>
      {message && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-red-800">
          {message}
        </p>
      )}
      <button
        type="button"
        onClick={() => checkout.current?.open()}
        disabled={fetcher.state !== "idle"}
        className="mt-8 w-full rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400"
      >
        Registrar tarjeta
      </button>
    </>
  );
}
