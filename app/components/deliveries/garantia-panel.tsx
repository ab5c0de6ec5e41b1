import { Form } from "react-router";
import type { GarantiaReturnState, GarantiaSummary } from "@server/garantias/index.server";
import { AccountSection } from "~/components/account/account-page";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { garantiaReturnLabels, type GarantiaReturnPreference } from "@core/garantia";

const STATE_LABELS: Record<GarantiaReturnState, string> = {
  en_proceso: "en proceso",
  devuelta: "devuelta a tu medio de pago",
  credito: "como crédito",
  retenida: "retenida (bidón dañado)",
  requiere_atencion: "en revisión por nuestro equipo",
  por_devolver_a_mano: "te la devolvemos por transferencia",
  devuelta_a_mano: "devuelta por nuestro equipo",
};

/**
 * Decision 0075: the customer's bidón garantía (what we hold, their credit, the latest returns) and
 * how they want it back when they return bidones. The choice is a plain form post.
 */
export function GarantiaPanel({ garantia, saved }: { garantia: GarantiaSummary; saved: boolean }) {
  return (
    <AccountSection title="Garantía de tus bidones">
      <p className="text-sm text-slate-700" data-testid="garantia-held">
        {garantia.heldUnits > 0
          ? `Tenemos en garantía ${formatSoles(garantia.heldCents)} por ${garantia.heldUnits} ${garantia.heldUnits === 1 ? "bidón" : "bidones"}. Te la devolvemos cuando nos devuelves los bidones.`
          : "No tenemos garantía tuya en depósito."}
        {garantia.creditCents > 0 && ` Tienes ${formatSoles(garantia.creditCents)} de crédito: se descuenta solo en tu próximo pedido de compra única.`}
      </p>
      {garantia.returns.length > 0 && (
        <ul className="mt-3 divide-y divide-slate-100 text-sm" aria-label="Garantías devueltas">
          {garantia.returns.map((row) => (
            <li key={row.id} className="flex flex-wrap justify-between gap-x-3 py-2">
              <span className="text-slate-900">
                {formatSoles(row.amountCents)} por {row.units} {row.units === 1 ? "bidón" : "bidones"}: {STATE_LABELS[row.state]}
              </span>
              <time dateTime={row.createdAt} className="text-slate-600">
                {formatLimaInstant(row.createdAt)}
              </time>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" className="mt-4 space-y-2" aria-label="Cómo quieres recibir tu garantía">
        <input type="hidden" name="intent" value="garantia_preference" />
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-800">Cuando devuelvas bidones, quiero la garantía como:</legend>
          {(Object.entries(garantiaReturnLabels) as [GarantiaReturnPreference, string][]).map(([value, label]) => (
            <label key={value} className="flex items-start gap-3 text-sm text-slate-800">
              <input type="radio" name="preference" value={value} defaultChecked={garantia.preference === value} className="mt-0.5 h-5 w-5" />
              {label}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="rounded-full border border-brand-700 px-5 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
          Guardar mi elección
        </button>
        {saved && (
          <p role="status" className="text-sm text-emerald-800">
            Guardamos tu elección.
          </p>
        )}
      </Form>
    </AccountSection>
  );
}
