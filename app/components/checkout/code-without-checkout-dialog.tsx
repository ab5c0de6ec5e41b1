import { useId, useState } from "react";
import { useFetcher } from "react-router";

/**
 * Spec §8 "Widget missing": Culqi's checkout did not load, but the payment's Culqi order can still
 * give a payment code. The spec's "Ir a Flow" button is named for what it does here (decision 0048):
 * Flow only registers subscription cards in this shop, so that label would send customers nowhere.
 */
export function CodeWithoutCheckoutDialog() {
  const [open, setOpen] = useState(true);
  const fetcher = useFetcher<{ error?: string }>();
  const titleId = useId();
  if (!open) return null;
  const busy = fetcher.state !== "idle";
  return (
    <div role="dialog" aria-labelledby={titleId} className="mt-6 rounded-3xl border border-brand-200 bg-white p-6 shadow-lg">
      <h2 id={titleId} className="text-lg font-bold text-brand-900">
        Continuar con el Pago
      </h2>
      <p className="mt-2 text-slate-700">Puedes pagar tu pedido con un código de pago desde tu banca móvil, tu billetera o en un agente, sin abrir Culqi.</p>
      {fetcher.data?.error && (
        <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-red-800">
          {fetcher.data.error}
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-3">
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="code_without_checkout" />
          <button
            type="submit"
            disabled={busy}
            className="rounded-full bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400"
          >
            {busy ? "Generando código…" : "Obtener código de pago"}
          </button>
        </fetcher.Form>
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="rounded-full border border-slate-300 px-5 py-2.5 font-semibold text-slate-800 hover:bg-slate-50"
        >
          Cancelar
        </button>
      </div>
    </div>
  );
}
