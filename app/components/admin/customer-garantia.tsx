import { useState } from "react";
import { Form } from "react-router";
import type { GarantiaReturnState, GarantiaSummary } from "@server/garantias/index.server";
import type { BidonBalance } from "@server/deliveries/index.server";
import { AccountSection, FactList } from "~/components/account/account-page";
import { StaffMessage, actionButtonClass } from "~/components/admin/customer-sections";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { garantiaReturnLabels } from "@core/garantia";

const STATE_LABELS: Record<GarantiaReturnState, string> = {
  en_proceso: "Devolución en proceso",
  devuelta: "Devuelta",
  credito: "Crédito para su próximo pedido",
  retenida: "Retenida (bidón dañado)",
  requiere_atencion: "Requiere atención",
  por_devolver_a_mano: "Por devolver a mano (pago en efectivo o código)",
};

/**
 * Decision 0075: the customer's bidón garantía as staff see it, and the form to record bidones the
 * customer brought back outside a delivery (their garantía goes back as the customer prefers, or is
 * kept for a broken bidón).
 */
export function CustomerGarantia({
  garantia,
  bidones,
  canRecordReturn,
  result,
}: {
  garantia: GarantiaSummary;
  bidones: BidonBalance;
  canRecordReturn: boolean;
  result?: { ok: boolean; message: string } | null;
}) {
  // A new key per form shown: a double click posts the same key and is recorded once.
  const [requestKey] = useState(() => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : ""));
  const withoutGarantia = Math.max(0, bidones.balance - garantia.heldUnits - garantia.onTheirWayUnits);
  return (
    <AccountSection title="Garantía de bidones">
      <FactList
        testId="customer-garantia"
        facts={[
          ["Garantía en depósito", `${formatSoles(garantia.heldCents)} (${garantia.heldUnits} ${garantia.heldUnits === 1 ? "bidón" : "bidones"})`],
          ["Cobrada, por entregar", `${garantia.onTheirWayUnits} ${garantia.onTheirWayUnits === 1 ? "bidón" : "bidones"}`],
          ["Bidones sin garantía", String(withoutGarantia)],
          ["Crédito disponible", formatSoles(garantia.creditCents)],
          ["Al devolver bidones", garantiaReturnLabels[garantia.preference]],
        ]}
      />
      {garantia.returns.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-100 text-sm" aria-label="Devoluciones de garantía">
          {garantia.returns.map((row) => (
            <li key={row.id} className="py-2">
              <p className="text-slate-900">
                {formatSoles(row.amountCents)} · {row.units} {row.units === 1 ? "bidón" : "bidones"} · pedido {row.orderNumber} ·{" "}
                <span className={row.state === "requiere_atencion" ? "font-semibold text-red-800" : ""}>{STATE_LABELS[row.state]}</span>
              </p>
              <p className="text-xs text-slate-600">
                {formatLimaInstant(row.createdAt)}
                {row.state === "requiere_atencion" && row.lastError ? ` · ${row.lastError}` : ""}
              </p>
            </li>
          ))}
        </ul>
      )}
      {canRecordReturn && bidones.balance > 0 && (
        <Form method="post" className="mt-4 space-y-3 border-t border-slate-100 pt-4" aria-label="Registrar bidones devueltos">
          <input type="hidden" name="intent" value="bidon_return" />
          <input type="hidden" name="requestKey" value={requestKey} />
          <div className="flex flex-wrap items-end gap-3">
            <label className="text-sm font-semibold text-slate-800">
              Bidones devueltos
              <input
                type="number"
                name="quantity"
                min={1}
                max={bidones.balance}
                defaultValue={1}
                required
                className="mt-1 block w-24 rounded-lg border border-slate-300 px-3 py-2"
              />
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name="goodCondition" value="si" defaultChecked className="h-5 w-5" />
              En buen estado (se devuelve la garantía)
            </label>
          </div>
          <label className="block text-sm font-semibold text-slate-800">
            Nota (opcional)
            <input type="text" name="note" maxLength={200} className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2" />
          </label>
          <button type="submit" className={`${actionButtonClass} border-brand-700 text-brand-800 hover:bg-brand-50`}>
            Registrar devolución
          </button>
        </Form>
      )}
      {result && <StaffMessage ok={result.ok} message={result.message} />}
    </AccountSection>
  );
}
