import type { PurchaseOptions } from "~/lib/purchase-options";

/** One-time or subscription, and the subscription's frequency (spec §3 purchase options). */
export function PurchaseOptionsPicker({ value, onChange }: { value: PurchaseOptions; onChange: (next: Partial<PurchaseOptions>) => void }) {
  const option = "flex cursor-pointer items-start gap-3 rounded-2xl border p-4 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50";
  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 font-semibold text-brand-900">Tipo de compra</legend>
      <label className={option}>
        <input
          type="radio"
          name="purchaseType"
          value="one-time"
          checked={value.purchaseType === "one-time"}
          onChange={() => onChange({ purchaseType: "one-time" })}
          className="mt-1 accent-brand-700"
        />
        <span>
          <span className="block font-semibold">Compra única</span>
          <span className="text-sm text-slate-600">Paga solo este pedido.</span>
        </span>
      </label>
      <label className={option}>
        <input
          type="radio"
          name="purchaseType"
          value="subscription"
          checked={value.purchaseType === "subscription"}
          onChange={() => onChange({ purchaseType: "subscription" })}
          className="mt-1 accent-brand-700"
        />
        <span>
          <span className="flex items-center gap-2 font-semibold">
            Suscripción <span className="rounded-full bg-leaf-700 px-2 py-0.5 text-xs text-white">Hasta 15% dscto</span>
          </span>
          <span className="text-sm text-slate-600">Recibe tu agua cada semana, cada 2 semanas o cada mes y apoya una causa social.</span>
        </span>
      </label>
      {value.purchaseType === "subscription" && (
        <label className="block">
          <span className="mb-1 block text-sm font-semibold">Frecuencia</span>
          <select
            name="subscriptionFrequency"
            value={value.subscriptionFrequency}
            onChange={(event) => onChange({ subscriptionFrequency: event.target.value === "anual" ? "anual" : "mensual" })}
            className="w-full rounded-xl border border-slate-300 px-3 py-2"
          >
            <option value="mensual">Mensual (5% dscto)</option>
            <option value="anual">Anual (15% dscto)</option>
          </select>
        </label>
      )}
    </fieldset>
  );
}
